// Endpoint calls benchmark: a published endpoint called over HTTP on loopback with one JSON row a
// call by a number of callers, each sending its next call once the last answered, at most `rate`
// calls a second between them, for a while (callers.mjs, in a thread of its own); the server in this process, its import workers running. Reports the calls accepted
// (202, an upload stored and a run to take it started or queued) per second, the answers by status,
// the latency of the answers, accepted and all, the process's CPU a call and its event loop's
// utilisation and delay while the calls came, and how long the runs took to import every accepted
// call's upload after the last call (each once), in how many imports.
//   npm run bench:endpoint
//   BENCH_RATE (calls/s at most, 200), BENCH_CLIENTS (32), BENCH_SECONDS (20), BENCH_WARMUP_SECONDS (3, at the same
//   rate, reported apart), BENCH_ENDPOINTS (1: the calls spread
//   over that many pipelines, each published), IMPORT_CONCURRENCY (4),
//   BENCH_DATABASE_URL (an empty PostgreSQL database; PGlite otherwise)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../../packages/server/src/app.ts';
import type { AuthContext } from '../../packages/server/src/platform/auth/access-control.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';

const rate = Number(process.env.BENCH_RATE ?? 200);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const endpointCount = Number(process.env.BENCH_ENDPOINTS ?? 1);
const concurrency = Number(process.env.IMPORT_CONCURRENCY ?? 4);
const clients = Number(process.env.BENCH_CLIENTS ?? 32);
const TARGET = { acceptedPerSecond: 200, p99Ms: 100 };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-endpoint-'));
const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', TFA_REQUIRED: 'none', PORT: '0' };
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const config = loadConfig(env);
const { app, services, ctx } = await buildApp(config, { web: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');
const base = `http://127.0.0.1:${address.port}/gdb-runtime/v1`;

const manager = await services.users.create({
  firstName: 'bench',
  lastName: 'endpoints',
  userName: 'bench.endpoints',
  email: 'bench.endpoints@example.test',
  roles: ['manager'],
  password: 'Bench!Passw0rd',
});
const auth: AuthContext = { userId: manager.id, sessionId: 'bench', userName: manager.user_name, roles: ['manager'] };
const [brand] = await services.reference.brands();
const [locale] = await services.reference.locales();
const [productLine] = await services.reference.productLines();
const [datakind] = await services.reference.datakinds();
const component = await services.components.create({
  name: 'bench price copy',
  kind: 'instruction',
  inputs: [{ name: 'prices' }],
  outputs: [{ name: 'out' }],
  jsCode: 'ctx.output.out = ctx.input.prices.map((r) => ({ ...r, seen: true }));',
});

/** Pipelines fed by an endpoint taking JSON, each published with the most calls a minute a key may make. */
const endpoints: { path: string; key: string }[] = [];
for (let i = 0; i < endpointCount; i++) {
  const pipelineId = await services.pipelines.create({
    name: `bench endpoint ${i}`,
    isMaster: false,
    component: component._id,
    dataSources: [
      { dataSubKind: 'prices', connectorType: 'endpoint', dataFromMaster: false, contentType: 'json', dataModel: null },
    ],
    dataSinks: [{ name: 'out', format: 'JSON', target: null }],
    brand: brand?._id ?? null,
    locale: locale?._id ?? null,
    productLine: productLine?._id ?? null,
    datakind: datakind?._id ?? null,
  });
  const published = await services.endpoints.publish(auth, { id: pipelineId, path: `bench/prices-${i}`, callsPerMinute: 6000 });
  endpoints.push({ path: published.path, key: published.apiKey });
}
await services.imports.startWorking({ concurrency });

// The callers in a thread of their own (callers.mjs), while the load is sampled here.
const loadSamples: number[] = [os.loadavg()[0] ?? 0];
const loadTimer = setInterval(() => loadSamples.push(os.loadavg()[0] ?? 0), 1000);
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
// The process's CPU and event loop are measured from the measured calls on (the callers say when).
let cpuAtStart = process.cpuUsage();
let eluAtStart = performance.eventLoopUtilization();
const job = { base, endpoints, rate, clients, seconds, warmUpSeconds };
const callers = new Worker(new URL('./callers.mjs', import.meta.url), { workerData: job });

type CallersResult = {
  answers: { status: number; ms: number }[];
  elapsedMs: number;
  warmUp: { status: number; ms: number }[];
  failures: string[];
};
const { answers, elapsedMs, warmUp, failures } = await new Promise<CallersResult>((resolve, reject) => {
  callers.on('message', (message: CallersResult | { measuring: true }) => {
    if (!('measuring' in message)) return resolve(message);
    cpuAtStart = process.cpuUsage();
    eluAtStart = performance.eventLoopUtilization();
    loopDelay.enable();
  });
  callers.once('error', reject);
});
const cpu = process.cpuUsage(cpuAtStart);
const elu = performance.eventLoopUtilization(eluAtStart);
loopDelay.disable();
await callers.terminate();
clearInterval(loadTimer);

const byStatus = new Map<number, number>();
for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
const q = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN).toFixed(1));
};
const accepted = answers.filter((a) => a.status === 202);
// Throughput: the calls accepted of those sent in the measured seconds (a server that falls behind
// holds its callers, who then send fewer), over those seconds; the last answers may come after them.
const acceptedPerSecond = accepted.length / seconds;
const all = answers.map((a) => a.ms);
const acceptedMs = accepted.map((a) => a.ms);

const k = ctx.db.kysely;
// Every accepted call's upload is imported by a run, once: waited for (at most two minutes).
const drainStarted = performance.now();
const waitingUploads = async () =>
  Number(
    (
      await k
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('from', '=', 'source')
        .where('imported_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );
while ((await waitingUploads()) > 0 && performance.now() - drainStarted < 120_000) await new Promise((r) => setTimeout(r, 200));
const drainSeconds = Number(((performance.now() - drainStarted) / 1000).toFixed(1));
const notImported = await waitingUploads();
const imports = await k
  .selectFrom('imports')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
const takenBy = await k
  .selectFrom('uploads')
  .select((eb) => eb.fn.count<number>('imported_by').distinct().as('n'))
  .where('from', '=', 'source')
  .executeTakeFirstOrThrow();

await services.imports.stopWorking();
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const report = {
  engine: ctx.db.engine,
  cores: os.availableParallelism(),
  load1: { min: Math.min(...loadSamples), max: Math.max(...loadSamples) },
  offeredPerSecond: rate,
  /** The calls before the measured ones, at the same rate, not counted. */
  warmUp: {
    seconds: warmUpSeconds,
    calls: warmUp.length,
    p99Ms: q(
      warmUp.map((a) => a.ms),
      0.99,
    ),
  },
  clients,
  seconds,
  lastAnswerSeconds: Number((elapsedMs / 1000).toFixed(1)),
  endpoints: endpointCount,
  importConcurrency: concurrency,
  calls: answers.length,
  byStatus: Object.fromEntries(byStatus),
  acceptedPerSecond: Number(acceptedPerSecond.toFixed(1)),
  latencyMs: { p50: q(all, 0.5), p99: q(all, 0.99), max: q(all, 1) },
  acceptedLatencyMs: { p50: q(acceptedMs, 0.5), p99: q(acceptedMs, 0.99) },
  /** The server's process (callers' thread included): CPU milliseconds a call, and its event loop's delay. */
  processCpuMsPerCall: Number(((cpu.user + cpu.system) / 1000 / Math.max(1, answers.length)).toFixed(2)),
  eventLoopUtilization: Number(elu.utilization.toFixed(2)),
  eventLoopDelayMs: { p99: Number((loopDelay.percentile(99) / 1e6).toFixed(1)), max: Number((loopDelay.max / 1e6).toFixed(1)) },
  importsCreated: Number(imports.n),
  importsThatTookUploads: Number(takenBy.n),
  uploadsNotImported: notImported,
  drainSeconds,
  failures: failures.slice(0, 5),
  target: TARGET,
};
console.log(JSON.stringify(report, null, 2));
const met = acceptedPerSecond >= TARGET.acceptedPerSecond && q(acceptedMs, 0.99) <= TARGET.p99Ms;
process.exit(met ? 0 : 1);
