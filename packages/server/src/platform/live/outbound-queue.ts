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
  /** The waiting messages passed a limit: they were dropped, and the queue takes nothing more. */
  onOverflow(): void;
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
 * while it is busy; every kind counts against the limits, and past them the queue is dropped and
 * closed once, so a client that does not read never holds more than the limits in server memory.
 */
export class OutboundQueue {
  readonly #transport: OutboundTransport;
  readonly #limits: OutboundLimits;
  readonly #events: OutboundEvents;
  #items: Item[] = [];
  #chars = 0;
  #closed = false;

  constructor(transport: OutboundTransport, limits: OutboundLimits, events: OutboundEvents) {
    this.#transport = transport;
    this.#limits = limits;
    this.#events = events;
  }

  /** True once the queue overflowed or was closed: it sends nothing more. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Messages waiting. */
  get length(): number {
    return this.#items.length;
  }

  /** Characters of payload waiting. */
  get chars(): number {
    return this.#chars;
  }

  /** Sends or queues a message; false when it was not taken (the queue is closed or just overflowed). */
  push(event: string, payload: unknown): boolean {
    if (this.#closed) return false;
    if (this.#items.length === 0 && this.#transport.writable()) {
      this.#transport.send(event, payload);
      return true;
    }
    const size = typeof payload === 'string' ? payload.length : CONTROL_SIZE;
    this.#items.push({ event, payload, size });
    this.#chars += size;
    if (this.#items.length > this.#limits.maxMessages || this.#chars > this.#limits.maxChars) {
      this.close();
      this.#events.onOverflow();
      return false;
    }
    return true;
  }

  /** Call when the transport can take more: sends what waits. */
  drain(): void {
    if (this.#closed || !this.#transport.writable()) return;
    const items = this.#items;
    this.#items = [];
    this.#chars = 0;
    for (const item of items) this.#transport.send(item.event, item.payload);
  }

  /** Forgets everything and takes nothing more (the socket closed or overflowed). */
  close(): void {
    this.#closed = true;
    this.#items = [];
    this.#chars = 0;
  }
}
