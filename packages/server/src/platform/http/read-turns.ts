import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyComing } from '../bodies-coming.ts';
import { widenReceiveBuffer } from './receive-buffer.ts';

type Turn = { state: 'waiting' | 'active' | 'left'; start: () => void };

/**
 * Places for work that may run at once: `enter` starts the work now when a place is free, or once
 * one is. Waiting work is taken in turn by whom it is for — the first of each one's queue, one
 * after the other — so that one caller's burst does not hold the others back; each one's own
 * work in the order asked. The answer of `enter` gives the place back (or, still waiting, leaves
 * the queue without ever starting); calling it again does nothing. While `narrow` is held, only
 * `narrowLimit` places are given (work started before keeps its place); once no one holds it,
 * waiting work fills the places again.
 */
export class Turns {
  #active = 0;
  #narrowed = 0;
  /** Each caller's waiting work, in the order the callers come next. */
  readonly #queues = new Map<string, Turn[]>();

  constructor(
    readonly limit: number,
    readonly narrowLimit = limit,
  ) {}

  enter(start: () => void, who = ''): () => void {
    const turn: Turn = {
      state: 'waiting',
      start: () => {
        turn.state = 'active';
        start();
      },
    };
    if (this.#active < this.#places()) {
      this.#active++;
      turn.start();
    } else {
      const queue = this.#queues.get(who);
      if (queue) queue.push(turn);
      else this.#queues.set(who, [turn]);
    }
    return () => {
      if (turn.state === 'active') this.#next();
      turn.state = 'left';
    };
  }

  /** Places taken and work waiting for one. */
  stats(): { active: number; waiting: number } {
    let waiting = 0;
    for (const queue of this.#queues.values()) waiting += queue.filter((t) => t.state === 'waiting').length;
    return { active: this.#active, waiting };
  }

  /** Gives `narrowLimit` places until the answer is called (once; again does nothing). */
  narrow(): () => void {
    this.#narrowed++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#narrowed--;
      while (this.#active < this.#places()) {
        const turn = this.#waiting();
        if (!turn) return;
        this.#active++;
        turn.start();
      }
    };
  }

  #places(): number {
    return this.#narrowed > 0 ? Math.min(this.limit, this.narrowLimit) : this.limit;
  }

  /** A place given back: to the next caller's first work still waiting, or freed (as it is while narrowed past it). */
  #next(): void {
    const turn = this.#active > this.#places() ? undefined : this.#waiting();
    if (turn) turn.start();
    else this.#active--;
  }

  /** The next caller's first work still waiting, taken off its queue (that caller then goes last). */
  #waiting(): Turn | undefined {
    for (const [who, queue] of this.#queues) {
      this.#queues.delete(who);
      let turn = queue.shift();
      while (turn && turn.state !== 'waiting') turn = queue.shift();
      if (queue.length > 0) this.#queues.set(who, queue);
      if (turn) return turn;
    }
    return undefined;
  }
}

const READS = new Set(['GET', 'HEAD']);
/** A request body from this size on (or of a size not declared) narrows the reads while it comes. */
const LARGE_BODY_BYTES = 1024 * 1024;
/**
 * Reads worked on at once while a large body comes. The kernel holds a couple of hundred KiB of a
 * sender's bytes between two reads of the socket, and the socket is read once a turn of the event
 * loop: beside fifty users' reads, ten at once, a turn took several milliseconds and a 20 MiB
 * upload about 1 s (0.1–0.2 s alone); with four at once while it came, 0.2–0.5 s.
 */
export const READS_BESIDE_LARGE_BODY = 4;

/** Whether a request's body is large, or of a size it does not declare. */
function largeBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length === undefined) return request.headers['transfer-encoding'] !== undefined;
  return Number(length) >= LARGE_BODY_BYTES;
}

/**
 * While a signed-in caller's large body comes (an upload), the reads get fewer places (when they
 * are taken in turn) and the process knows a body is coming (bodies-coming.ts): until the body
 * has been read, its client has gone or it has been answered. Its connection gets a larger
 * receive buffer (receive-buffer.ts), so that each turn of the event loop takes more of the body.
 */
function noteLargeBodies(scope: FastifyInstance, turns: Turns | undefined): void {
  const widen = new WeakMap<FastifyRequest, () => void>();
  const release = (request: FastifyRequest) => {
    widen.get(request)?.();
    widen.delete(request);
  };
  scope.addHook('onRequest', (request, _reply, done) => {
    if (READS.has(request.method) || !request.auth || !largeBody(request)) return done();
    widenReceiveBuffer(request.raw.socket);
    const narrowed = turns?.narrow();
    const coming = bodyComing();
    widen.set(request, () => {
      narrowed?.();
      coming();
    });
    request.raw.once('end', () => release(request));
    request.raw.once('close', () => release(request));
    done();
  });
  scope.addHook('onResponse', (request, _reply, done) => {
    release(request);
    done();
  });
}

/**
 * At most `limit` of this scope's reads (GET and HEAD) are worked on at once; the others wait
 * their turn, taken by caller in turn (the signed-in user, or the address) and each caller's in
 * the order they came. Fifty readers interleaved on one event loop make every turn
 * of it long, and whatever else the process does — an upload's body, an import's steps — waits
 * for each turn; taken a few at a time they make short turns and about as many answers a second.
 * A read's place is given back once its answer is ready to send (or its client has gone); writes
 * never wait here, and while a signed-in caller's large body comes the reads get fewer places
 * still (READS_BESIDE_LARGE_BODY). A limit of 0 lets every read in at once.
 */
export function takeReadsInTurn(
  scope: FastifyInstance,
  limit: number,
  who: (request: FastifyRequest) => string = (request) => request.auth?.userId ?? request.ip,
): Turns | undefined {
  const turns = limit > 0 ? new Turns(limit, READS_BESIDE_LARGE_BODY) : undefined;
  noteLargeBodies(scope, turns);
  if (!turns) return undefined;
  const leaving = new WeakMap<FastifyRequest, () => void>();
  const leave = (request: FastifyRequest) => {
    leaving.get(request)?.();
    leaving.delete(request);
  };
  scope.addHook('onRequest', (request, _reply, done) => {
    if (!READS.has(request.method)) return done();
    // Started a microtask later, so that its place is noted before an answer made at once gives it back.
    leaving.set(
      request,
      turns.enter(() => queueMicrotask(() => done()), who(request)),
    );
    // A client gone while its read waits leaves the queue; one gone while it is worked on gives its place back.
    request.raw.once('close', () => leave(request));
  });
  scope.addHook('onSend', (request, _reply, payload, done) => {
    leave(request);
    done(null, payload);
  });
  return turns;
}
