import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Places for work that may run at once: `enter` starts the work now when a place is free, or once
 * one is, in the order asked. Its answer gives the place back (or, still waiting, leaves the
 * queue without ever starting); calling it again does nothing.
 */
type Turn = { state: 'waiting' | 'active' | 'left'; start: () => void };

export class Turns {
  #active = 0;
  readonly #waiting: Turn[] = [];

  constructor(readonly limit: number) {}

  enter(start: () => void): () => void {
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
    } else this.#waiting.push(turn);
    return () => {
      if (turn.state === 'active') this.#next();
      turn.state = 'left';
    };
  }

  /** Places taken and work waiting for one. */
  stats(): { active: number; waiting: number } {
    return { active: this.#active, waiting: this.#waiting.filter((t) => t.state === 'waiting').length };
  }

  /** A place given back: to the first still waiting, or freed. */
  #next(): void {
    let turn = this.#waiting.shift();
    while (turn && turn.state !== 'waiting') turn = this.#waiting.shift();
    if (turn) turn.start();
    else this.#active--;
  }
}

const READS = new Set(['GET', 'HEAD']);

/**
 * At most `limit` of this scope's reads (GET and HEAD) are worked on at once; the others wait
 * their turn in the order they came. Fifty readers interleaved on one event loop make every turn
 * of it long, and whatever else the process does — an upload's body, an import's steps — waits
 * for each turn; taken a few at a time they make short turns and the same requests per second.
 * A read's place is given back once its answer is ready to send (or its client has gone); writes
 * never wait here. A limit of 0 lets every read in at once.
 */
export function takeReadsInTurn(scope: FastifyInstance, limit: number): Turns | undefined {
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
      turns.enter(() => queueMicrotask(() => done())),
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
