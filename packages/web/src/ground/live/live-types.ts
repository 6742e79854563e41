import type { LiveFilter, LiveProjection } from '@gdb/shared/live/live.schemas';
import type { LiveDoc } from './codec.ts';

// The live client's public shapes: what a subscriber asks and hears, and the socket it runs on.

/** Where a subscription stands: waiting for its init, receiving changes, cut off, or refused. */
export type LiveStatus = 'connecting' | 'live' | 'disconnected' | 'error';

/** What a subscriber hears. `init` replaces everything it had: it comes first and again after each reconnect. */
export interface LiveCallbacks {
  init?(docs: LiveDoc[]): void;
  insert?(doc: LiveDoc): void;
  update?(doc: LiveDoc): void;
  delete?(id: string, doc: LiveDoc | undefined): void;
  status?(status: LiveStatus, message?: string): void;
}

export interface LiveRequest {
  filter?: LiveFilter | undefined;
  projection?: LiveProjection | undefined;
}

/** The part of a socket.io client socket the live client uses. */
export interface LiveSocket {
  readonly connected: boolean;
  /** False once the socket will not reconnect by itself. */
  readonly active: boolean;
  connect(): void;
  disconnect(): void;
  emit(event: string, payload: unknown): void;
  on(event: string, listener: (arg: unknown) => void): void;
}

/** Builds the socket; `auth` hands socket.io the token at each (re)connection. */
export type LiveSocketFactory = (auth: (cb: (data: Record<string, string>) => void) => void) => LiveSocket;

export type TokenGetter = () => string | null | undefined | Promise<string | null | undefined>;

export interface LiveClientOptions {
  getToken: TokenGetter;
  createSocket: LiveSocketFactory;
  logger?: Pick<Console, 'log' | 'warn' | 'error'>;
  /** Delay before connecting again after the server refused or closed the connection. */
  retryDelayMs?: (attempt: number) => number;
  findTimeoutMs?: number;
  /** How long the socket stays open once nothing uses it, so switching subscriptions does not reconnect. */
  idleCloseMs?: number;
}
