/** Where a socket's messages go: the socket.io emit, and whether its transport takes more now. */
export interface OutboundTransport {
  writable(): boolean;
  send(event: string, payload: unknown): void;
}

export interface OutboundLimits {
  /** Most messages waiting for a busy transport. */
  maxMessages: number;
  /** Most characters of payload waiting for a busy transport. */
  maxChars: number;
}

export interface OutboundEvents {
  /** The client fell behind: what waited was dropped and later changes are dropped until `onRecover`. */
  onOverflow(): void;
  /** The transport drained after an overflow: the client can take a fresh copy now. */
  onRecover(): void;
}

/** What a message that is not text counts for. */
const CONTROL_SIZE = 256;

interface Item {
  event: string;
  payload: unknown;
  size: number;
}

/**
 * A bounded queue per socket. Messages go straight out while the transport is writable and wait
 * while it is busy; past the limits the queue is dropped and the socket is stale until it drains,
 * so a slow client never holds more than the limits in server memory.
 */
export class OutboundQueue {
  readonly #transport: OutboundTransport;
  readonly #limits: OutboundLimits;
  readonly #events: OutboundEvents;
  #items: Item[] = [];
  #chars = 0;
  #stale = false;

  constructor(transport: OutboundTransport, limits: OutboundLimits, events: OutboundEvents) {
    this.#transport = transport;
    this.#limits = limits;
    this.#events = events;
  }

  /** True between an overflow and the drain that follows it. */
  get stale(): boolean {
    return this.#stale;
  }

  /** Messages waiting. */
  get length(): number {
    return this.#items.length;
  }

  /**
   * Sends or queues a change; false when it was dropped (the socket is stale). `control` messages
   * (init, find, exception) are never dropped: they are bounded by the subscriptions of a socket.
   */
  push(event: string, payload: unknown, control = false): boolean {
    if (this.#stale && !control) return false;
    if (this.#items.length === 0 && this.#transport.writable()) {
      this.#transport.send(event, payload);
      return true;
    }
    const size = typeof payload === 'string' ? payload.length : CONTROL_SIZE;
    this.#items.push({ event, payload, size });
    this.#chars += size;
    if (!control && (this.#items.length > this.#limits.maxMessages || this.#chars > this.#limits.maxChars)) {
      this.#items = this.#items.filter((i) => i.event !== 'change');
      this.#chars = this.#items.reduce((n, i) => n + i.size, 0);
      this.#stale = true;
      this.#events.onOverflow();
      return false;
    }
    return true;
  }

  /** Call when the transport can take more: sends what waits, or ends a stale period. */
  drain(): void {
    if (!this.#transport.writable()) return;
    const items = this.#items;
    this.#items = [];
    this.#chars = 0;
    for (const item of items) this.#transport.send(item.event, item.payload);
    if (this.#stale) {
      this.#stale = false;
      this.#events.onRecover();
    }
  }

  /** Forgets everything (the socket closed). */
  clear(): void {
    this.#items = [];
    this.#chars = 0;
  }
}
