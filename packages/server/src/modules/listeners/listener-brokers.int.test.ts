import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  amqpPublisher,
  BROKER_URLS,
  type Message,
  mqttPublisher,
  natsPublisher,
  type Publisher,
  uniqueName,
} from '../../../test/broker-clients.ts';
import { buildDataModel } from '../../../test/factories.ts';
import { csvSource, importKit, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Listeners against the real brokers (RabbitMQ, Mosquitto, NATS with JetStream on 127.0.0.1):
// messages arrive as batched uploads of the listener source and imports of its pipeline, none
// lost and none twice, also across a stop and start of the listeners; a message not valid for the
// data model ends in an invalid upload, acknowledged.

let t: TestApp;
let kit: Awaited<ReturnType<typeof importKit>>;
let manager: string;
let dataModel: string;
beforeAll(async () => {
  t = await createTestApp({
    listeners: { enabled: true, privateRanges: ['127.0.0.0/8'], backoffMinMs: 100, backoffMaxMs: 1000 },
  });
  kit = await importKit(t);
  manager = (await t.signedIn(['manager'])).token;
  dataModel = await buildDataModel(t, 'price rows', {
    type: 'object',
    properties: { code: { type: 'string', minLength: 1 }, price: { type: 'number' } },
    required: ['code', 'price'],
  });
  await t.services.imports.startWorking({ concurrency: 2 });
  await t.services.listenerRuntime.start();
});
afterAll(async () => {
  await t.close();
});

const DOUBLE = 'ctx.output.out = ctx.input.prices.map((r) => ({ code: r.code, price: r.price * 2 }));';
type Kind = 'amqp' | 'mqtt' | 'nats';
/** A test's time: the brokers, the checks and the runs of a thousand messages. */
const TIMEOUT = 60_000;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A pipeline fed by a listener of `kind` on `queue`, published and connected on this instance. */
async function listening(kind: Kind, queue: string, extra: Record<string, unknown> = {}) {
  const component = await kit.component(DOUBLE, ['prices'], ['out']);
  const source = csvSource('prices', { connectorType: 'listener', contentType: 'json', dataModel });
  const id = await kit.pipeline({ name: queue, component, sources: [source], sinks: [sink('out', 'JSON')] });
  const body = { id, kind, url: BROKER_URLS[kind], queue, batchSize: 250, batchWaitMs: 100, ...extra };
  if (kind === 'amqp') Object.assign(body, { username: 'guest', password: 'guest' });
  const res = await t.call('POST', '/pipelines/publish-listener', { token: manager, body });
  expect(res.status, res.body.message).toBe(200);
  const state = await until(
    async () => (await t.call('GET', `/pipelines/deployed-listener/${id}`, { token: manager })).body.data.state,
    (s: { state: string }[]) => s[0]?.state === 'connected',
  );
  expect(state[0]).toMatchObject({ state: 'connected', last_error: null });
  return id;
}

/** The rows the pipeline's valid uploads hold, the invalid uploads, and whether every valid one was imported. */
async function stored(pipelineId: string) {
  const uploads = await t.ctx.db.kysely
    .selectFrom('uploads')
    .select(['id', 'status', 'row_count', 'imported_at'])
    .where('pipeline_id', '=', pipelineId)
    .where('from', '=', 'source')
    .execute();
  const valid = uploads.filter((u) => u.status === 'valid');
  return {
    rows: valid.reduce((n, u) => n + (u.row_count ?? 0), 0),
    uploads: valid.length,
    invalid: uploads.filter((u) => u.status === 'invalid').map((u) => u.id),
    imported: valid.length > 0 && valid.every((u) => u.imported_at !== null),
  };
}

const messages = (from: number, count: number): Message[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `m${from + i}`,
    body: JSON.stringify({ code: `C${from + i}`, price: from + i }),
  }));

const publisherOf = (kind: Kind | 'jetstream', queue: string): Promise<Publisher> => {
  if (kind === 'amqp') return amqpPublisher(queue);
  if (kind === 'mqtt') return mqttPublisher(queue);
  return natsPublisher(queue, kind === 'jetstream' ? `GDB_${queue.replace(/\W/g, '_')}` : undefined);
};

const CASES = [
  { name: 'AMQP', kind: 'amqp', publisher: 'amqp', extra: {} },
  { name: 'MQTT', kind: 'mqtt', publisher: 'mqtt', extra: {} },
  { name: 'NATS', kind: 'nats', publisher: 'nats', extra: {} },
  { name: 'NATS JetStream', kind: 'nats', publisher: 'jetstream', extra: { jetStream: true } },
] as const;

describe('a published listener', () => {
  for (const c of CASES) {
    it(
      `takes 1,000 messages of ${c.name} as batched uploads and imports, none lost, none twice`,
      async () => {
        const queue = uniqueName(`gdb.${c.publisher}`);
        const publisher = await publisherOf(c.publisher, queue);
        try {
          const id = await listening(c.kind, queue, c.extra);
          await publisher.send(messages(0, 1000));
          const end = await until(
            () => stored(id),
            (s) => s.rows >= 1000 && s.imported,
          );
          expect(end).toMatchObject({ rows: 1000, invalid: [], imported: true });
          expect(end.uploads).toBeLessThanOrEqual(1000 / 10);
          // A run asked for by the last batches may still be ending once every row is imported.
          const runs = await until(
            () => t.ctx.db.kysely.selectFrom('imports').select('state').where('pipeline_id', '=', id).execute(),
            (rs) => rs.every((r) => r.state === 'done' || r.state === 'failed' || r.state === 'aborted'),
          );
          expect(runs.length).toBeGreaterThan(0);
          expect(runs.every((r) => r.state === 'done')).toBe(true);
          expect([0, undefined]).toContain(await publisher.waiting());
        } finally {
          await publisher.close();
        }
      },
      TIMEOUT,
    );
  }

  for (const c of CASES.filter((k) => k.publisher !== 'nats')) {
    it(
      `loses none and stores none twice across a stop and a start of the listeners (${c.name})`,
      async () => {
        const queue = uniqueName(`gdb.restart.${c.publisher}`);
        const publisher = await publisherOf(c.publisher, queue);
        try {
          const id = await listening(c.kind, queue, c.extra);
          const sending = publisher.send(messages(0, 600));
          await until(
            () => stored(id),
            (s) => s.rows > 0,
          );
          await t.services.listenerRuntime.stop();
          await sending;
          // Sent again while stopped (a publisher's retry): dropped by their ids.
          await publisher.send([...messages(0, 100), ...messages(600, 400)]);
          await t.services.listenerRuntime.start();
          const end = await until(
            () => stored(id),
            (s) => s.rows >= 1000 && s.imported,
          );
          expect(end.rows).toBe(1000);
          await new Promise((r) => setTimeout(r, 500));
          expect((await stored(id)).rows).toBe(1000);
        } finally {
          await publisher.close();
        }
      },
      TIMEOUT,
    );
  }

  it(
    'stores a message not valid for the data model as an invalid upload with its log lines, acknowledged; the rest of its batch is imported',
    async () => {
      const queue = uniqueName('gdb.poison');
      const publisher = await amqpPublisher(queue);
      try {
        const id = await listening('amqp', queue, { batchWaitMs: 300 });
        await publisher.send([
          { id: 'p1', body: JSON.stringify({ code: 'A', price: 1 }) },
          { id: 'p2', body: 'not json' },
          { id: 'p3', body: JSON.stringify({ code: '', price: 'x' }) },
          { id: 'p4', body: JSON.stringify([{ code: 'B', price: 2 }]) },
        ]);
        const end = await until(
          () => stored(id),
          (s) => s.rows >= 2 && s.imported && s.invalid.length > 0,
        );
        expect(end).toMatchObject({ rows: 2, imported: true });
        expect(end.invalid).toHaveLength(1);
        const logs = await t.services.logs.forUploads(end.invalid);
        expect(logs.some((l) => l.level === 'error')).toBe(true);
        await new Promise((r) => setTimeout(r, 500));
        expect(await publisher.waiting()).toBe(0);
        expect((await stored(id)).invalid).toHaveLength(1);
      } finally {
        await publisher.close();
      }
    },
    TIMEOUT,
  );
});
