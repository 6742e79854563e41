import type { FastifyInstance, FastifyRequest } from 'fastify';

type Turn = { state: 'waiting' | 'active' | 'left'; start: () => void };

/**
 * Places for work that may run at once: `enter` starts the work now when a place is free, or once
 * one is. Waiting work is taken in turn by whom it is for — the first of each one's queue, one
 * after the other — so that one caller's burst does not hold the others back; each one's own
 * work in the order asked. The answer of `enter` gives the place back (or, still waiting, leaves
 * the queue without ever starting); calling it again does nothing.
 */
export class Turns {
  #active = 0;
  /** Each caller's waiting work, in the order the callers come next. */
  readonly #queues = new Map<string, Turn[]>();

  constructor(readonly limit: number) {}

  enter(start: () => void, who = ''): () => void {
    const turn: Turn = {
      state: 'waiting',
      start: () => {
        turn.state = 'active';
        start();
      },
    };
    if (this.#active < this.limit) {
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

  /** A place given back: to the next caller's first work still waiting, or freed. */
  #next(): void {
    const turn = this.#waiting();
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
/**
 * At most `limit` of this scope's reads (GET and HEAD) are worked on at once; the others wait
 * their turn, taken by caller in turn (the signed-in user, or the address) and each caller's in
 * the order they came. Fifty readers interleaved on one event loop make every turn
 * of it long, and whatever else the process does — an upload's body, an import's steps — waits
 * for each turn; taken a few at a time they make short turns and about as many answers a second.
 * A read's place is given back once its answer is ready to send (or its client has gone); writes
 * never wait here. A limit of 0 lets every read in at once.
 */
export function takeReadsInTurn(
  scope: FastifyInstance,
  limit: number,
  who: (request: FastifyRequest) => string = (request) => request.auth?.userId ?? request.ip,
): Turns | undefined {
  if (limit <= 0) return undefined;
  const turns = new Turns(limit);
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
