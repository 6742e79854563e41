import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import type { Db } from '../db/index.ts';
import { type ChangeFeed, createChangeFeed, noteAbout, runWithApp } from '../live/change-feed.ts';
import { type AuthContext, type Authenticate, routeKey } from './access-control.ts';

interface Entry {
  auth: AuthContext;
  /** When the entry must be looked up again: its TTL or the token's own expiry, whichever is first. */
  until: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Verified access tokens kept in memory for a few seconds, so a signed-in caller's requests do not
 * each read their session and user, nor what the access checks read of the user (badges,
 * unrestricted-upload flag, assigned pipelines). A revocation or access change made by this
 * instance forgets the entries at once (`forgetSession`, `forgetUser`); one made by another
 * instance arrives as the database's change notification (`follow`), and when notifications are
 * lost the TTL bounds how long a revoked token is still taken. A lookup that began before a
 * revocation never fills the cache after it.
 */
export class SessionCache {
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();
  /** Counts revocations: a lookup begun under an older count may have read the row before one. */
  #epoch = 0;

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  /** The caller a token was verified as, while the entry is fresh. */
  get(token: string, now = Date.now()): AuthContext | undefined {
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    if (entry.until > now) return entry.auth;
    this.#entries.delete(token);
    return undefined;
  }

  /** The revocation count a lookup starts under; pass it back to `set`. */
  epoch(): number {
    return this.#epoch;
  }

  /** Keeps a verified caller until the TTL or the token's expiry (ms), unless a revocation came since `epoch`. */
  set(token: string, auth: AuthContext, tokenExpiresAt: number, epoch: number, now = Date.now()): void {
    if (this.#ttlMs <= 0 || epoch !== this.#epoch) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#sweep(now);
    this.#entries.set(token, { auth, until: Math.min(now + this.#ttlMs, tokenExpiresAt) });
  }

  forgetSession(sessionId: string): void {
    this.#forget((auth) => auth.sessionId === sessionId);
  }

  /** A user's roles, activity, badges, unrestricted-upload flag or assignments changed, or the user is gone. */
  forgetUser(userId: string): void {
    this.#forget((auth) => auth.userId === userId);
  }

  clear(): void {
    this.#epoch += 1;
    this.#entries.clear();
  }

  /** Whether entries are kept at all (a TTL above 0). */
  get caching(): boolean {
    return this.#ttlMs > 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Hears other instances' revocations through the database's change notifications. */
  follow(db: Db, log: FastifyBaseLogger): ChangeFeed {
    return createChangeFeed(
      db,
      {
        onPayload: (payload) => this.#onPayload(payload),
        // Notifications may have been missed while the listener was away.
        onResync: () => this.clear(),
      },
      log,
    );
  }

  #onPayload(payload: string): void {
    const note = noteAbout(payload, ['sessions', 'users']);
    if (typeof note?.id !== 'string') return;
    if (note.t === 'sessions') this.forgetSession(note.id);
    else this.forgetUser(note.id);
  }

  #forget(matches: (auth: AuthContext) => boolean): void {
    this.#epoch += 1;
    for (const [token, entry] of this.#entries) if (matches(entry.auth)) this.#entries.delete(token);
  }

  #sweep(now: number): void {
    for (const [token, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(token);
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
  }
}

/** When a verified token expires, in ms (its `exp` claim). */
function expiryOf(token: string): number {
  const exp = (decodeJwt(token) as { exp?: unknown }).exp;
  return typeof exp === 'number' ? exp * 1000 : 0;
}

/** `authenticate` answering from the cache while an entry is fresh, and filling it after a lookup. */
export function cachedAuthenticate(cache: SessionCache, authenticate: Authenticate): Authenticate {
  return async (token) => {
    const hit = cache.get(token);
    if (hit) return hit;
    const epoch = cache.epoch();
    const auth = await authenticate(token);
    cache.set(token, auth, expiryOf(token), epoch);
    return auth;
  };
}

/**
 * The routes that change a user's roles, activity, badges, assignments or existence (deleting a
 * badge takes it off its holders). A database notification reaches this instance's cache a moment
 * after the change commits, possibly after the answer: the cache is emptied before such a request
 * is answered, so the next request of the user changed is checked anew.
 */
const USER_ACCESS_WRITES = new Set(['POST /users', 'POST /users/toggle', 'DELETE /users', 'DELETE /tags']);

/** Keeps the cache right: other instances' revocations by notification, this one's user changes at once. */
export function followRevocations(app: FastifyInstance, sessions: SessionCache, db: Db, basePath: string): void {
  if (!sessions.caching) return;
  runWithApp(app, sessions.follow(db, app.log), 'sessions');
  app.addHook('onSend', async (request, reply) => {
    if (request.method === 'GET' || reply.statusCode >= 400) return;
    const key = routeKey(request.method, request.routeOptions.url ?? '', basePath);
    if (key && USER_ACCESS_WRITES.has(key)) sessions.clear();
  });
}
