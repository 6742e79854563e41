import http from 'node:http';
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImport, buildPipeline } from '../../../test/factories.ts';
import { connectLive, hubOn, urlOf } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import type { LiveHub } from './live-hub.ts';
import { LIVE_MESSAGES } from './live-types.ts';

const MAX_MESSAGES = 400;
const MAX_CHARS = 4 * 1024 * 1024;
const MAX_PENDING = 150;

let t: TestApp;
let hub: LiveHub;
let server: http.Server;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  server = http.createServer();
  hub = hubOn(server, t, { maxQueuedMessages: MAX_MESSAGES, maxQueuedChars: MAX_CHARS, maxPendingRequests: MAX_PENDING });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  token = (await t.signedIn(['manager'])).token;
});

afterAll(async () => {
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** A client behind a TCP relay whose server side can stop reading, as a paused or stuck browser does. */
async function stallableClient() {
  const ups = new Set<net.Socket>();
  const downs = new Set<net.Socket>();
  const relay = net.createServer((down) => {
    const up = net.connect(Number(urlOf(server.address()).split(':').pop()), '127.0.0.1');
    downs.add(down);
    ups.add(up);
    down.pipe(up);
    up.on('data', (chunk: Buffer) => down.write(chunk));
    const end = () => {
      up.destroy();
      down.destroy();
    };
    for (const s of [up, down]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const c = await connectLive(urlOf(relay.address()), token);
  return {
    c,
    stall: () => {
      for (const up of ups) up.pause();
    },
    resume: () => {
      for (const up of ups) up.resume();
    },
    close: async () => {
      c.close();
      await new Promise((resolve) => relay.close(resolve));
      for (const s of [...ups, ...downs]) s.destroy();
    },
  };
}

/** Samples the hub's waiting messages and characters until stopped. */
function sampleQueues() {
  const max = { queued: 0, chars: 0 };
  const timer = setInterval(() => {
    const s = hub.stats();
    max.queued = Math.max(max.queued, s.queued);
    max.chars = Math.max(max.chars, s.queuedChars);
  }, 2);
  return { max, stop: () => clearInterval(timer) };
}

async function logsOfNewImport(): Promise<string> {
  const { id: pipelineId } = await buildPipeline(t);
  return buildImport(t, pipelineId);
}

/** Commits of 20 log lines of 3 kB each, with pauses for sockets to write between them (raw rows: the load is the point). */
async function writeLogs(importId: string, batches: number): Promise<void> {
  const perBatch = 20;
  for (let b = 0; b < batches; b++) {
    await sql`
      insert into logs (level, message, import_id)
      select 'info', repeat('x', 3000) || (${b * perBatch}::int + g), ${importId}::uuid
      from generate_series(1, ${perBatch}) g`.execute(t.ctx.db.kysely);
    // Writers wait on I/O between commits; on PGlite a tight loop would never let sockets write.
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('live channel: back-pressure', () => {
  it('drops a stalled client that falls behind on changes after one exception; connecting again gives it the current data', async () => {
    const importId = await logsOfNewImport();
    const stalled = await stallableClient();
    const steady = await connectLive(urlOf(server.address()), token);
    const { c } = stalled;
    try {
      for (const client of [c, steady]) {
        client.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'logs', token });
        await client.waitFor(() => client.inits[0]);
      }
      const sampler = sampleQueues();
      stalled.stall();
      await writeLogs(importId, 150);
      const rows = 150 * 20;
      await steady.waitFor(() => steady.changes.length === rows, 20_000);
      expect(steady.exceptions).toEqual([]);
      expect(hub.stats().sockets).toBe(1);
      sampler.stop();
      expect(sampler.max.queued).toBeLessThanOrEqual(MAX_MESSAGES + 1);

      stalled.resume();
      await c.waitFor(() => !c.socket.connected, 20_000);
      expect(c.exceptions).toEqual([{ message: LIVE_MESSAGES.behind }]);
      expect(c.changes.length).toBeLessThan(rows);
      expect(hub.stats().behind).toBeGreaterThanOrEqual(1);

      const again = await connectLive(urlOf(server.address()), token);
      again.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'logs', token });
      const fresh = await again.waitFor(() => again.inits[0], 20_000);
      expect(fresh.data).toHaveLength(rows);
      again.close();
    } finally {
      steady.close();
      await stalled.close();
    }
  });

  it.each([
    [
      'find',
      'answers to its finds',
      (importId: string) => ({ collectionName: 'logs', filter: { importId }, subscriptionId: 'f', token }),
    ],
    ['drop', 'exceptions to its bad messages', () => ({ collectionName: 'logs' })],
  ])('drops a stalled client whose %s messages pile up (%s)', async (event, _what, payload) => {
    const importId = await logsOfNewImport();
    await writeLogs(importId, 10);
    const stalled = await stallableClient();
    const { c } = stalled;
    try {
      const sampler = sampleQueues();
      stalled.stall();
      // 200 lines of 3 kB a find: 100 finds would hold 60 MB if nothing bounded them.
      const count = event === 'find' ? 100 : 2_000;
      for (let i = 0; i < count; i++) c.socket.emit(event, payload(importId));
      const until = Date.now() + 20_000;
      while (hub.stats().sockets > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      sampler.stop();
      expect(hub.stats().sockets).toBe(0);
      expect(sampler.max.chars).toBeLessThanOrEqual(MAX_CHARS + 700_000);
      expect(sampler.max.queued).toBeLessThanOrEqual(MAX_MESSAGES + 1);

      stalled.resume();
      await c.waitFor(() => !c.socket.connected, 20_000);
      expect(c.exceptions.filter((e) => e.message === LIVE_MESSAGES.behind)).toHaveLength(1);
    } finally {
      await stalled.close();
    }
  });

  it('drops a client that sends requests faster than they are answered, after one exception', async () => {
    const importId = await logsOfNewImport();
    const c = await connectLive(urlOf(server.address()), token);
    try {
      for (let i = 0; i < 1_000; i++) {
        c.socket.emit('find', { collectionName: 'logs', filter: { importId }, subscriptionId: `f${i}`, token });
      }
      await c.waitFor(() => !c.socket.connected, 20_000);
      expect(c.exceptions.filter((e) => e.subscriptionId === undefined)).toEqual([{ message: LIVE_MESSAGES.tooManyRequests }]);
      expect(c.finds.length).toBeLessThanOrEqual(MAX_PENDING);
      expect(hub.stats().sockets).toBe(0);
    } finally {
      c.close();
    }
  });
});
