import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../../test/elsewhere.ts';
import { gate } from '../../../test/gate.ts';
import type { AuthContext } from '../auth/access-control.ts';
import { Turns, takeReadsInTurn } from './read-turns.ts';

describe('Turns', () => {
  it('starts work up to its limit, then each waiting one in order as places are given back', () => {
    const turns = new Turns(2);
    const started: number[] = [];
    const leave = [1, 2, 3, 4].map((n) => turns.enter(() => started.push(n)));
    expect(started).toEqual([1, 2]);
    expect(turns.stats()).toEqual({ active: 2, waiting: 2 });
    leave[1]?.();
    expect(started).toEqual([1, 2, 3]);
    leave[1]?.();
    expect(started).toEqual([1, 2, 3]);
    expect(turns.stats()).toEqual({ active: 2, waiting: 1 });
  });

  it('takes waiting work by caller in turn, each caller’s in order', () => {
    const turns = new Turns(1);
    const started: string[] = [];
    const leave = new Map<string, () => void>();
    const enter = (name: string, who: string) =>
      leave.set(
        name,
        turns.enter(() => started.push(name), who),
      );
    enter('a0', 'a');
    for (const name of ['a1', 'a2', 'a3']) enter(name, 'a');
    enter('b1', 'b');
    enter('c1', 'c');
    enter('b2', 'b');
    for (const name of ['a0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']) leave.get(name)?.();
    expect(started).toEqual(['a0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(turns.stats()).toEqual({ active: 0, waiting: 0 });
  });

  it('never starts work that left the queue, and frees the place when nothing waits', () => {
    const turns = new Turns(1);
    const started: string[] = [];
    const first = turns.enter(() => started.push('first'));
    const gone = turns.enter(() => started.push('gone'));
    const third = turns.enter(() => started.push('third'));
    gone();
    first();
    expect(started).toEqual(['first', 'third']);
    third();
    expect(turns.stats()).toEqual({ active: 0, waiting: 0 });
    turns.enter(() => started.push('later'));
    expect(started).toEqual(['first', 'third', 'later']);
  });
});

type Gate = ReturnType<typeof gate>;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server whose slow reads wait for their gate, with two reads at a time. */
async function serverWithTurns(limit: number) {
  app = Fastify();
  const started: string[] = [];
  const gates = new Map<string, Gate>();
  let turns: Turns | undefined;
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const user = request.headers['x-user'];
    if (typeof user === 'string') request.auth = { userId: user } as AuthContext;
  });
  await app.register(async (api) => {
    turns = takeReadsInTurn(api, limit, (request) => String(request.headers['x-who'] ?? request.ip));
    api.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: 8 * MiB }, (_r, body, done) =>
      done(null, body),
    );
    api.post('/upload', async (request) => ({ bytes: (request.body as Buffer).length }));
    api.get<{ Params: { id: string } }>('/slow/:id', async (request) => {
      started.push(request.params.id);
      const g = gate();
      gates.set(request.params.id, g);
      await g.opened;
      return { id: request.params.id };
    });
    api.get('/now', async () => ({ now: true }));
    api.get('/fails', async () => {
      throw new Error('no');
    });
    api.post('/write', async () => ({ written: true }));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { port, started, gates, turns: turns as Turns };
}

/** The status and text of the answer to a request sent. */
function answerOf(req: http.ClientRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

/** Sends a request; `abort` ends it from the client's side. */
function send(port: number, method: string, path: string, who = 'someone') {
  const controller = new AbortController();
  const req = http.request({
    port,
    host: '127.0.0.1',
    method,
    path,
    signal: controller.signal,
    agent: false,
    headers: { 'x-who': who },
  });
  const answer = answerOf(req);
  req.end();
  return { answer, abort: () => controller.abort() };
}

const settle = () => new Promise((r) => setTimeout(r, 100));
const MiB = 1024 * 1024;

/** Slow reads, answered once each has started or waits for a place. */
async function slowReads(s: Awaited<ReturnType<typeof serverWithTurns>>, names: string[]) {
  const reads = names.map((id) => send(s.port, 'GET', `/slow/${id}`));
  await until(() => s.turns.stats().active + s.turns.stats().waiting === names.length);
  await settle();
  return reads;
}

describe('reads taken in turn', () => {
  it('works on two reads at once; the third waits for a place, and writes pass beside them', async () => {
    const s = await serverWithTurns(2);
    const reads = ['a', 'b', 'c'].map((id) => send(s.port, 'GET', `/slow/${id}`));
    await until(() => s.started.length === 2);
    await settle();
    expect(s.started).toEqual(['a', 'b']);
    expect(s.turns.stats()).toEqual({ active: 2, waiting: 1 });
    expect((await send(s.port, 'POST', '/write').answer).body).toBe('{"written":true}');
    s.gates.get('a')?.open();
    expect((await reads[0]?.answer)?.body).toBe('{"id":"a"}');
    await until(() => s.started.length === 3);
    expect(s.started[2]).toBe('c');
    s.gates.get('b')?.open();
    s.gates.get('c')?.open();
    await Promise.all(reads.map((r) => r.answer));
    expect(s.turns.stats()).toEqual({ active: 0, waiting: 0 });
  });

  it('serves a caller who asks once before the rest of another’s burst', async () => {
    const s = await serverWithTurns(1);
    const burst = ['a1', 'a2', 'a3', 'a4'].map((id) => send(s.port, 'GET', `/slow/${id}`, 'a'));
    await until(() => s.turns.stats().waiting === 3);
    const other = send(s.port, 'GET', '/slow/b1', 'b');
    await until(() => s.turns.stats().waiting === 4);
    for (const id of ['a1', 'a2', 'b1', 'a3', 'a4']) {
      await until(() => s.gates.has(id));
      s.gates.get(id)?.open();
    }
    await Promise.all([...burst, other].map((r) => r.answer));
    expect(s.started).toEqual(['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('drops a read whose client left while it waited; the next one takes the place', async () => {
    const s = await serverWithTurns(1);
    const first = send(s.port, 'GET', '/slow/first');
    await until(() => s.started.length === 1);
    const left = send(s.port, 'GET', '/slow/left');
    left.answer.catch(() => {});
    const next = send(s.port, 'GET', '/slow/next');
    await until(() => s.turns.stats().waiting === 2);
    left.abort();
    await until(() => s.turns.stats().waiting === 1);
    s.gates.get('first')?.open();
    await first.answer;
    await until(() => s.started.length === 2);
    expect(s.started).toEqual(['first', 'next']);
    s.gates.get('next')?.open();
    await next.answer;
    await settle();
    expect(s.started).toEqual(['first', 'next']);
    expect(s.turns.stats()).toEqual({ active: 0, waiting: 0 });
  });

  it('gives back the place of a client that left while its read was worked on', async () => {
    const s = await serverWithTurns(1);
    const gone = send(s.port, 'GET', '/slow/gone');
    gone.answer.catch(() => {});
    await until(() => s.started.length === 1);
    gone.abort();
    await until(() => s.turns.stats().active === 0);
    expect((await send(s.port, 'GET', '/now').answer).status).toBe(200);
  });

  it('gives back the places of reads answered at once and of reads that failed', async () => {
    const s = await serverWithTurns(1);
    for (let i = 0; i < 50; i++) {
      const { status } = await send(s.port, 'GET', i % 2 ? '/now' : '/fails').answer;
      expect(status).toBe(i % 2 ? 200 : 500);
    }
    const together = await Promise.all(Array.from({ length: 20 }, () => send(s.port, 'GET', '/now').answer));
    expect(together.every((a) => a.status === 200)).toBe(true);
    expect(s.turns.stats()).toEqual({ active: 0, waiting: 0 });
  });

  const names = ['r0', 'r1', 'r2', 'r3', 'r4'];

  it('keeps every place for the reads while a signed-in caller trickles a chunked body', async () => {
    const s = await serverWithTurns(names.length);
    const trickle = http.request({
      port: s.port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/upload',
      headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked', 'x-user': 'uploader' },
      agent: false,
    });
    const answer = answerOf(trickle);
    trickle.write(Buffer.alloc(1024));
    await settle();
    const reads = await slowReads(s, names);
    expect(s.turns.stats()).toEqual({ active: names.length, waiting: 0 });
    expect(s.started).toEqual(names);
    for (const id of names) s.gates.get(id)?.open();
    await Promise.all(reads.map((r) => r.answer));
    trickle.end(Buffer.alloc(1024));
    expect(JSON.parse((await answer).body)).toEqual({ bytes: 2048 });
  });

  it('lets every read in at once with a limit of 0', async () => {
    const s = await serverWithTurns(0);
    expect(s.turns).toBeUndefined();
    const reads = names.map((id) => send(s.port, 'GET', `/slow/${id}`));
    await until(() => s.started.length === names.length);
    for (const id of names) s.gates.get(id)?.open();
    await Promise.all(reads.map((r) => r.answer));
  });
});
