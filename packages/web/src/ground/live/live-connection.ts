import type { LiveClientOptions, LiveSocket } from './live-types.ts';

type Options = Required<Omit<LiveClientOptions, 'logger'>> & { logger: Pick<Console, 'log' | 'warn' | 'error'> };

/** What the connection asks of the client: whether anything still needs the socket, and what to do as it connects or drops. */
export interface ConnectionEvents {
  busy: () => boolean;
  connected: () => void;
  lost: () => void;
  /** Closed for being idle: the client forgets its server subscriptions. */
  closed: () => void;
  /** The server's messages, by event. */
  messages: Record<'init' | 'change' | 'find' | 'exception', (arg: unknown) => void>;
}

/**
 * The tab's one socket of the live channel: opened when first needed, given the current token at
 * each (re)connection and with each message, connected again after the server refused or closed
 * it (with a growing delay), and closed a moment after nothing needs it any more.
 */
export class LiveConnection {
  #socket: LiveSocket | undefined;
  #sending: Promise<void> = Promise.resolve();
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #retries = 0;

  constructor(
    private readonly options: Options,
    private readonly events: ConnectionEvents,
  ) {}

  /** True while the socket exists. */
  get open(): boolean {
    return this.#socket !== undefined;
  }

  get connected(): boolean {
    return this.#socket?.connected ?? false;
  }

  /** Sends in order, each message with the current token; a message for a socket gone or down is dropped. */
  send(event: string, payload: object): void {
    const socket = this.#socket;
    this.#sending = this.#sending
      .then(async () => {
        const token = await this.options.getToken();
        if (socket !== this.#socket || !socket?.connected) return;
        socket.emit(event, token ? { ...payload, token } : payload);
      })
      .catch((error: unknown) => this.options.logger.error(error));
  }

  ensure(): void {
    if (this.#socket) return;
    const socket = this.options.createSocket((cb) => {
      Promise.resolve(this.options.getToken()).then(
        (token) => cb(token ? { token } : {}),
        () => cb({}),
      );
    });
    this.#socket = socket;
    const on = (event: string, handler: (arg: unknown) => void) =>
      socket.on(event, (arg) => {
        if (socket !== this.#socket) return;
        try {
          handler(arg);
        } catch (error) {
          this.options.logger.error(error);
        }
      });
    on('connect', () => {
      this.#retries = 0;
      this.events.connected();
    });
    on('disconnect', (reason) => this.#lost(reason === 'io server disconnect'));
    on('connect_error', (error) => {
      this.options.logger.error(error);
      this.#lost(!socket.active);
    });
    for (const [event, handler] of Object.entries(this.events.messages)) on(event, handler);
    socket.connect();
  }

  /** The connection dropped or was refused: the client hears it, and the socket connects again when it will not by itself. */
  #lost(retryByHand: boolean): void {
    this.events.lost();
    if (!retryByHand || this.#retryTimer) return;
    const delay = this.options.retryDelayMs(this.#retries);
    this.#retries += 1;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.#socket && !this.#socket.connected && this.events.busy()) this.#socket.connect();
    }, delay);
  }

  closeIfIdle(): void {
    if (this.events.busy() || !this.#socket || this.#idleTimer) return;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      this.#closeNow();
    }, this.options.idleCloseMs);
  }

  #closeNow(): void {
    if (this.events.busy() || !this.#socket) return;
    const socket = this.#socket;
    this.#socket = undefined;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.events.closed();
    socket.disconnect();
  }
}
