import http from 'node:http';
import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { LIVE_MESSAGES, LiveHub } from './live-hub.ts';
import { connectLive, seedImport, seedPipeline, urlOf } from './live-test-kit.ts';

let t: TestApp;
let hub: LiveHub;
let server: http.Server;

beforeAll(async () => {
  t = await createTestApp();
  server = http.createServer();
  hub = new LiveHub(server, {
    db: t.ctx.db,
    logs: t.services.logs,
    authenticate: (token) => t.services.auth.authenticate(token),
    log: t.app.log,
    limits: { maxQueuedMessages: 400, maxQueuedChars: 4 * 1024 * 1024 },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('live channel: back-pressure', () => {
  it('drops what a stalled client cannot take, then sends it an exception and a fresh init', async () => {
    const { token } = await t.signedIn(['manager']);
    const { id: pipelineId } = await seedPipeline(t.ctx.db.kysely);
    const importId = await seedImport(t.ctx.db.kysely, pipelineId);
    const port = urlOf(server.address()).split(':').pop();
    const target = Number(port);

    const downs = new Set<net.Socket>();
    const ups = new Set<net.Socket>();
    const relay = net.createServer((down) => {
      const up = net.connect(target, '127.0.0.1');
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
    const steady = await connectLive(urlOf(server.address()), token);
    try {
      for (const client of [c, steady]) {
        client.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'logs', token });
        await client.waitFor(() => client.inits[0]);
      }
      let maxQueued = 0;
      const sampler = setInterval(() => {
        maxQueued = Math.max(maxQueued, hub.stats().queued);
      }, 2);
      for (const up of ups) up.pause();
      // 150 commits of 20 lines of 3 kB: a client that reads keeps up, one that stopped reading cannot.
      const batches = 150;
      const perBatch = 20;
      const rows = batches * perBatch;
      for (let b = 0; b < batches; b++) {
        await sql`
          insert into logs (level, message, import_id)
          select 'info', repeat('x', 3000) || (${b * perBatch}::int + g), ${importId}::uuid
          from generate_series(1, ${perBatch}) g`.execute(t.ctx.db.kysely);
        // Writers wait on I/O between commits; on PGlite a tight loop would never let sockets write.
        await new Promise((r) => setTimeout(r, 10));
      }
      await steady.waitFor(() => steady.changes.length === rows, 20_000);
      expect(steady.exceptions).toEqual([]);
      expect(steady.inits).toHaveLength(1);
      expect(c.inits).toHaveLength(1);

      for (const up of ups) up.resume();
      const fresh = await c.waitFor(() => c.inits[1], 20_000);
      clearInterval(sampler);
      expect(maxQueued).toBeLessThanOrEqual(401);
      expect(c.exceptions).toContainEqual({ message: LIVE_MESSAGES.behind });
      expect(c.events.lastIndexOf('exception')).toBeLessThan(c.events.lastIndexOf('init'));
      expect(fresh.data).toHaveLength(rows);
      expect(fresh.data.at(-1)?.message).toBe(`${'x'.repeat(3000)}${rows}`);
      expect(c.changes.length).toBeLessThan(rows);

      await t.services.logs.append({ level: 'info', message: 'caught up', importId });
      await c.waitFor(() => c.changes.at(-1)?.data.fullDocument?.message === 'caught up');
      expect(hub.stats().behind).toBe(0);
    } finally {
      c.close();
      steady.close();
      await new Promise((resolve) => relay.close(resolve));
      for (const s of [...ups, ...downs]) s.destroy();
    }
  });
});
