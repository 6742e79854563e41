import type { NormalFilter } from '@gdb/shared/live/filter';
import type { LiveChange, LiveCollection, LiveProjection } from '@gdb/shared/live/live.schemas';
import type { DefaultEventsMap, Socket } from 'socket.io';
import type { z } from 'zod';
import type { AuthContext } from '../auth/access-control.ts';
import type { CollectionDef, LiveDoc } from './collections.ts';
import type { OutboundQueue } from './outbound-queue.ts';

// What the live hub's parts share: its limits and messages, a connected client and its subscriptions.

export interface LiveLimits {
  /** Messages of any kind a busy socket may have waiting before it is dropped. */
  maxQueuedMessages: number;
  /** Characters of payload a busy socket may have waiting before it is dropped. */
  maxQueuedChars: number;
  /** Messages of one socket received and not yet answered before it is dropped. */
  maxPendingRequests: number;
  maxSubscriptionsPerSocket: number;
  /** Sockets one user may hold on this instance. */
  maxSocketsPerUser: number;
  /** How long a socket may stay open without a valid token (in its handshake or a message). */
  authTimeoutMs: number;
  /** Most documents an `init` or `find` answers (the newest ones). */
  readLimit: Record<LiveCollection, number>;
  /** How often every connected session is checked again (revoked, expired, user disabled). */
  sessionCheckMs: number;
  /** How long after an init an insert of a document that init already held is skipped. */
  duplicateWindowMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  maxQueuedMessages: 5_000,
  maxQueuedChars: 16 * 1024 * 1024,
  maxPendingRequests: 200,
  maxSubscriptionsPerSocket: 100,
  maxSocketsPerUser: 20,
  authTimeoutMs: 10_000,
  readLimit: { logs: 5_000, uploads: 1_000, imports: 1_000, testLogs: 1_000 },
  sessionCheckMs: 60_000,
  duplicateWindowMs: 10_000,
};

export const LIVE_MESSAGES = {
  notAllowed: 'You are not allowed to do this.',
  authRequired: 'Authentication required.',
  behind: 'Too many messages are waiting for this connection; it is closed.',
  tooManyRequests: 'Too many requests are waiting on this connection; it is closed.',
  tooManySockets: 'Too many live connections are open for this user.',
  authTimeout: 'No valid token arrived in time; the connection is closed.',
  revoked: 'Your session has been revoked.',
  accessChanged: 'Your access rights have changed.',
  tooMany: 'Too many subscriptions on this connection.',
  internal: 'The server could not answer this request.',
} as const;

/** What the handshake found: nothing when it carried no token (the messages carry theirs). */
export interface SocketData {
  caller: AuthContext | undefined;
  token: string | undefined;
}

export type LiveSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

export interface Client {
  socket: LiveSocket;
  /** Who the socket belongs to: the first valid token it sent; it counts against that user's sockets. */
  caller: AuthContext | undefined;
  /** The token of messages that carry none. */
  token: string | undefined;
  subs: Map<string, Sub>;
  queue: OutboundQueue;
  /** Messages of one socket are handled one after the other. */
  chain: Promise<void>;
  /** Messages received and not yet answered. */
  pending: number;
  authTimer: NodeJS.Timeout | undefined;
}

export interface Sub {
  id: string;
  client: Client;
  collection: LiveCollection;
  def: CollectionDef;
  filter: NormalFilter;
  projection: LiveProjection | undefined;
  projectionKey: string;
  /** Hex of the envelope up to its data. */
  hexPrefix: string;
  caller: AuthContext;
  /** False while an init is being read: changes wait in `buffer`. */
  live: boolean;
  buffer: Prepared[];
  /** The buffer overflowed during an init: read it again. */
  missed: boolean;
  generation: number;
  recent: Set<string> | undefined;
  recentUntil: number;
}

/** A change ready to send, packed once per projection. */
export interface Prepared {
  change: LiveChange<LiveDoc>;
  doc: LiveDoc;
  /** Hex of the packed change, by projection. */
  packed: Map<string, string>;
}

/** A refusal of one message, told to its client as an exception. */
export class LiveError extends Error {
  readonly subscriptionId: string | undefined;
  constructor(message: string, subscriptionId: string | undefined) {
    super(message);
    this.subscriptionId = subscriptionId;
  }
}

/** The subscription id a message names, if any (cut to 100 characters). */
export function subscriptionIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || !('subscriptionId' in raw)) return undefined;
  return typeof raw.subscriptionId === 'string' ? raw.subscriptionId.slice(0, 100) : undefined;
}

/** A schema's issues as one line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
