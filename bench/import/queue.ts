// Import queue benchmark (9 b): many tiny immediate imports queued at once, each on its own
// pipeline with one valid two-row upload and a CSV data sink; then the workers of one process take
// them. Reports how many complete per minute, the time from queued to done, and peak memory.
//   node --no-node-snapshot --import tsx bench/import/queue.ts
//   BENCH_IMPORTS (1000), IMPORT_CONCURRENCY (4), BENCH_DATABASE_URL (an empty PostgreSQL database; PGlite otherwise)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../packages/server/src/app.ts';
import type { AuthContext } from '../../packages/server/src/platform/auth/access-control.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';

const count = Number(process.env.BENCH_IMPORTS ?? 1000);
const concurrency = Number(process.env.IMPORT_CONCURRENCY ?? 4);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-import-'));
const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', TFA_REQUIRED: 'none' };
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const config = loadConfig(env);
const { app, services, ctx } = await buildApp(config, { web: false });
const engine = ctx.db.engine;

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);

const admin = await services.users.create({
  firstName: 'bench',
  lastName: 'imports',
  userName: 'bench.imports',
  email: 'bench.imports@example.test',
  roles: ['super-admin'],
  password: 'Bench!Passw0rd',
});
const auth: AuthContext = { userId: admin.id, sessionId: 'bench', userName: admin.user_name, roles: ['super-admin'] };
const [brand] = await services.reference.brands();
const [locale] = await services.reference.locales();
const [productLine] = await services.reference.productLines();
const [datakind] = await services.reference.datakinds();
const component = await services.components.create({
  name: 'bench copy',
  kind: 'instruction',
  inputs: [{ name: 'rows' }],
  outputs: [{ name: 'out' }],
  jsCode: 'ctx.output.out = ctx.input.rows.map((r) => ({ ...r, seen: true }));',
});

// Pipelines with one upload each, received and checked as the upload route does it.
const setupStarted = performance.now();
const csv = Buffer.from('code,price\nA,1\nB,2\n');
const pipelineIds: string[] = [];
for (let i = 0; i < count; i++) {
  const pipelineId = await services.pipelines.create({
    name: `bench ${String(i).padStart(5, '0')}`,
    isMaster: false,
    component: component._id,
    dataSources: [{ dataSubKind: 'rows', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: null }],
    dataSinks: [{ name: 'out', format: 'CSV', target: null }],
    brand: brand?._id ?? null,
    locale: locale?._id ?? null,
    productLine: productLine?._id ?? null,
    datakind: datakind?._id ?? null,
  });
  await services.uploads.receive(auth, pipelineId, [
    { dataSubKind: 'rows', filename: 'rows.csv', mimetype: 'text/csv', bytes: csv },
  ]);
  pipelineIds.push(pipelineId);
}
await services.uploads.settled();
const setupMs = performance.now() - setupStarted;

// Queue them all at once (each answered with its ids, recorded before it is queued).
const queueStarted = performance.now();
const importIds: string[] = [];
for (const pipelineId of pipelineIds) {
  importIds.push(
    (await services.imports.create(auth, { pipelineId, kind: 'immediate', restartOnError: false, listPipelines: [] })).importId,
  );
}
const queueMs = performance.now() - queueStarted;

// Work them.
const workStarted = performance.now();
await services.imports.startWorking({ concurrency });
const k = ctx.db.kysely;
const progress: string[] = [];
let finished = 0;
let lastReport = workStarted;
while (finished < count) {
  await new Promise((r) => setTimeout(r, 250));
  const r = await k
    .selectFrom('imports')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', 'in', ['done', 'failed', 'aborted'])
    .executeTakeFirstOrThrow();
  finished = Number(r.n);
  if (performance.now() - lastReport > 10_000) {
    lastReport = performance.now();
    progress.push(`${((lastReport - workStarted) / 1000).toFixed(0)} s: ${finished}`);
  }
  if (performance.now() - workStarted > 30 * 60_000) throw new Error('not finished after 30 minutes');
}
const workMs = performance.now() - workStarted;

const rows = await k.selectFrom('imports').select(['state', 'created_at', 'started_at', 'end_at']).execute();
const states = new Map<string, number>();
for (const row of rows) states.set(row.state, (states.get(row.state) ?? 0) + 1);
const waits = rows
  .filter((r) => r.end_at)
  .map((r) => (r.end_at?.getTime() ?? 0) - r.created_at.getTime())
  .sort((a, b) => a - b);
const runs = rows
  .filter((r) => r.end_at && r.started_at)
  .map((r) => (r.end_at?.getTime() ?? 0) - (r.started_at?.getTime() ?? 0))
  .sort((a, b) => a - b);
const q = (list: number[], p: number) => list[Math.min(list.length - 1, Math.floor(p * list.length))] ?? Number.NaN;
const perMinute = (count / workMs) * 60_000;

clearInterval(sampler);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const report = {
  engine,
  imports: count,
  concurrency,
  cores: os.availableParallelism(),
  setupSeconds: Number((setupMs / 1000).toFixed(1)),
  queuedPerSecond: Number(((count / queueMs) * 1000).toFixed(0)),
  workSeconds: Number((workMs / 1000).toFixed(1)),
  completedPerMinute: Number(perMinute.toFixed(0)),
  target: 600,
  states: Object.fromEntries(states),
  runMs: { p50: q(runs, 0.5), p95: q(runs, 0.95), max: runs.at(-1) },
  queuedToDoneSeconds: { p50: q(waits, 0.5) / 1000, p95: q(waits, 0.95) / 1000 },
  peakRssMiB: Math.round(peakRss / 1024 / 1024),
  progress,
};
console.log(JSON.stringify(report, null, 2));
process.exit(perMinute >= 600 && (states.get('done') ?? 0) === count ? 0 : 1);
