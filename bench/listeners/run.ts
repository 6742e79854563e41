// Listener benchmark: how fast a published listener takes messages from its broker into batched
// uploads (checked against the data model, stored, acknowledged) and the imports of its pipeline.
// The queue is filled first, with the listener stopped; then the listener starts and the time
// until every message is stored in an upload and acknowledged counts (its id recorded), the
// imports of the pipeline running meanwhile; the time until every upload's check is recorded
// (valid) is given beside it.
//   npm run bench:listener
//   BENCH_MESSAGES (20000), BENCH_KIND (amqp or jetstream), BENCH_BATCH (1000),
//   BENCH_DATABASE_URL (an empty PostgreSQL database; PGlite otherwise)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import {
  amqpPublisher,
  BROKER_URLS,
  natsPublisher,
  type Publisher,
  uniqueName,
} from '../../packages/server/test/broker-clients.ts';
import { createListenerPipeline, priceMessage } from './pipeline.ts';

const count = Number(process.env.BENCH_MESSAGES ?? 20_000);
const kind = process.env.BENCH_KIND === 'jetstream' ? 'jetstream' : 'amqp';
const batchSize = Number(process.env.BENCH_BATCH ?? 1000);
const TARGET_PER_SECOND = 5000;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-listener-'));
const env: NodeJS.ProcessEnv = {
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  TFA_REQUIRED: 'none',
  LISTENER_PRIVATE_RANGES: '127.0.0.0/8',
  LISTENERS_ENABLED: 'true',
};
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const config = loadConfig(env);
const { app, services, ctx } = await buildApp(config, { web: false });
const k = ctx.db.kysely;

const admin = await services.users.create({
  firstName: 'bench',
  lastName: 'listener',
  userName: 'bench.listener',
  email: 'bench.listener@example.test',
  roles: ['super-admin'],
  password: 'Bench!Passw0rd',
});
const auth = { userId: admin.id, sessionId: 'bench', userName: admin.user_name, roles: admin.roles };

const pipelineId = await createListenerPipeline(services, admin.id, 'listener bench');

const queue = uniqueName('gdb.bench');
const publisher: Publisher =
  kind === 'amqp' ? await amqpPublisher(queue) : await natsPublisher(queue, `GDB_BENCH_${queue.replace(/\W/g, '_')}`);
await services.listeners.publish(auth, {
  id: pipelineId,
  kind: kind === 'amqp' ? 'amqp' : 'nats',
  url: kind === 'amqp' ? BROKER_URLS.amqp : BROKER_URLS.nats,
  queue,
  jetStream: kind === 'jetstream',
  batchSize,
  batchWaitMs: 200,
  ...(kind === 'amqp' ? { username: 'guest', password: 'guest' } : {}),
});

const messages = Array.from({ length: count }, (_, i) => priceMessage(i));
const published = Date.now();
for (let i = 0; i < count; i += 5000) await publisher.send(messages.slice(i, i + 5000));
console.log(`${count} messages published to ${kind} in ${Date.now() - published} ms; the listener starts`);

const stored = async () => {
  const row = await k
    .selectFrom('uploads')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('row_count'), eb.lit(0)).as('rows'),
      eb.fn.countAll<number>().as('uploads'),
    ])
    .where('pipeline_id', '=', pipelineId)
    .where('from', '=', 'source')
    .where('status', '=', 'valid')
    .executeTakeFirstOrThrow();
  return { rows: Number(row.rows), uploads: Number(row.uploads) };
};

/** Messages stored in uploads and acknowledged: the ids the listener recorded once their upload was stored. */
const ingested = async () =>
  Number(
    (
      await k
        .selectFrom('listener_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

await services.imports.startWorking();
const began = performance.now();
await services.listenerRuntime.start();
let taken = 0;
while (taken < count && performance.now() - began < 300_000) {
  // Read every 100 ms: an embedded database answers one query at a time, the listener's too.
  await new Promise((r) => setTimeout(r, 100));
  taken = await ingested();
}
const seconds = (performance.now() - began) / 1000;
const rate = taken / seconds;
// Then until their checks are recorded (valid uploads), as the runs see them.
let now = await stored();
while (now.rows < count && performance.now() - began < 300_000) {
  await new Promise((r) => setTimeout(r, 50));
  now = await stored();
}
const checkedSeconds = (performance.now() - began) / 1000;
const imported = await k
  .selectFrom('uploads')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .where('pipeline_id', '=', pipelineId)
  .where('from', '=', 'source')
  .where('imported_at', 'is not', null)
  .executeTakeFirstOrThrow();

const states = await k.selectFrom('listener_states').select(['state', 'last_error']).execute();
console.log(
  JSON.stringify(
    {
      states,
      engine: ctx.db.engine,
      broker: kind,
      messages: count,
      batchSize,
      ingested: taken,
      seconds: Math.round(seconds * 100) / 100,
      messagesPerSecond: Math.round(rate),
      target: TARGET_PER_SECOND,
      met: taken === count && now.rows === count && rate >= TARGET_PER_SECOND,
      validRows: now.rows,
      validUploads: now.uploads,
      checkedSeconds: Math.round(checkedSeconds * 100) / 100,
      uploadsImportedSoFar: Number(imported.n),
      load: os.loadavg()[0]?.toFixed(2),
    },
    null,
    2,
  ),
);

await publisher.close();
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(taken === count && now.rows === count && rate >= TARGET_PER_SECOND ? 0 : 1);
