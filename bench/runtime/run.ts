// Runtime benchmark: (a) latency of a trivial instruction run, in-process and over HTTP;
// (b) rows per second of a forEach mapping rows through two instruction instances, end to end
// (payload text in, output text out), against the same mapping as a plain JavaScript loop.
//   node --no-node-snapshot --import tsx bench/runtime/run.ts   (BENCH_CALLS, BENCH_ROWS, BENCH_REPEAT)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { clean, createComponents, makeRows, total } from './fixtures.ts';

const calls = Number(process.env.BENCH_CALLS ?? 1000);
const rowCount = Number(process.env.BENCH_ROWS ?? 100_000);
const repeat = Number(process.env.BENCH_REPEAT ?? 5);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-runtime-'));
const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', TFA_REQUIRED: 'none' };
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const config = loadConfig(env);
const { app, services } = await buildApp(config, { web: false });
const address = await app.listen({ host: '127.0.0.1', port: 0 });

const password = 'Bench!Passw0rd';
const user = await services.users.create({
  firstName: 'bench',
  lastName: 'runtime',
  userName: 'bench.runtime',
  email: 'bench.runtime@example.test',
  roles: ['manager'],
  password,
});
const login = await app.inject({
  method: 'POST',
  url: `${config.basePath}/users/login`,
  payload: { username: user.user_name, password },
});
const token = login.json<{ data: { token: { value: string } } }>().data.token.value;
const { trivial, mapper } = await createComponents(services);

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const median = (values: number[]) =>
  quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/** CPU seconds this process used (all its threads: main, isolates, GC) since `from`. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1e6;
};

async function latency(label: string, once: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(100, calls); i++) await once();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  const cpuMsPerCall = (cpuSince(cpu) * 1000) / calls;
  times.sort((a, b) => a - b);
  return {
    label,
    calls,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    cpuMsPerCall,
  };
}

// (a) latency
const inProcess = await latency('in-process (runtime service, as the route calls it)', () =>
  services.runtime.testComponent(user.id, trivial._id, { text: 'hello' }, {}),
);
const url = `${address}${config.basePath}/components/${trivial._id}/execute`;
const overHttp = await latency('over HTTP (fetch to 127.0.0.1, token checked)', async () => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': token },
    body: JSON.stringify({ payload: { text: 'hello' }, rt_context: {} }),
  });
  if (res.status !== 200) throw new Error(`execute answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
});

// (b) rows per second
const rows = makeRows(rowCount);
const inputJson = JSON.stringify({ rows });
const limits = { memoryMiB: 1024, timeoutMs: 120_000 };

/** Wall-clock and CPU seconds of `once`, median of `repeat` runs after one warm-up. */
async function timed(once: () => Promise<number>) {
  const seconds: number[] = [];
  const cpu: number[] = [];
  let outputChars = await once();
  for (let i = 0; i < repeat; i++) {
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    outputChars = await once();
    seconds.push((performance.now() - started) / 1000);
    cpu.push(cpuSince(cpuStart));
  }
  const wall = median(seconds);
  const best = Math.min(...seconds);
  const cpuSeconds = median(cpu);
  return {
    seconds: wall,
    best,
    rowsPerSecond: rowCount / wall,
    bestRowsPerSecond: rowCount / best,
    cpuSeconds,
    rowsPerCpuSecond: rowCount / cpuSeconds,
    outputChars,
  };
}

const mapped = async (checkPorts: boolean) => ({
  checkPorts,
  ...(await timed(
    async () =>
      (
        await services.runtime.runComponent({ componentId: mapper._id, inputJson, checkPorts, limits })
      ).outputJson.length,
  )),
});

const plainLoop = () =>
  timed(async () => {
    const input: { rows: Parameters<typeof clean>[0][] } = JSON.parse(inputJson);
    const out = [];
    for (const r of input.rows) out.push(total(clean(r)));
    return JSON.stringify({ rows: out }).length;
  });

const checksOff = await mapped(false);
const checksOn = await mapped(true);
const plain = await plainLoop();

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  loadAverage: os.loadavg(),
  database: config.databaseUrl ? 'postgresql' : 'pglite',
  latency: [inProcess, overHttp],
  rows: {
    count: rowCount,
    inputChars: inputJson.length,
    checksOff,
    checksOn,
    plain,
    ratioOff: checksOff.rowsPerSecond / plain.rowsPerSecond,
    cpuRatioOff: checksOff.rowsPerCpuSecond / plain.rowsPerCpuSecond,
  },
};

const ms = (v: number) => `${v.toFixed(2)} ms`;
const rps = (v: number) => `${Math.round(v).toLocaleString('en-US')} rows/s`;
console.log(`\nRuntime benchmark — ${results.date}, Node ${results.node}, ${results.cpus} cores, ${results.database}`);
console.log(`load average at the end: ${results.loadAverage.map((l) => l.toFixed(2)).join(' ')}\n`);
console.log('| (a) trivial instruction, execute | calls | p50 | p99 | mean | CPU per call |');
console.log('|---|---|---|---|---|---|');
for (const l of results.latency) {
  console.log(`| ${l.label} | ${l.calls} | ${ms(l.p50)} | ${ms(l.p99)} | ${ms(l.mean)} | ${ms(l.cpuMsPerCall)} |`);
}
console.log(
  `\n| (b) ${rowCount.toLocaleString('en-US')} rows, forEach → 2 instructions | seconds (median of ${repeat}) | rows/s | best run | rows per CPU second |`,
);
console.log('|---|---|---|---|---|');
const line = (label: string, r: typeof plain) =>
  console.log(
    `| ${label} | ${r.seconds.toFixed(3)} | ${rps(r.rowsPerSecond)} | ${rps(r.bestRowsPerSecond)} | ${rps(r.rowsPerCpuSecond)} |`,
  );
line('component, port checks off', checksOff);
line('component, port checks on', checksOn);
line('plain JavaScript loop (parse, map, stringify)', plain);
console.log(
  `\nratio component (checks off) / plain loop: ${results.rows.ratioOff.toFixed(2)} by the clock, ${results.rows.cpuRatioOff.toFixed(2)} by CPU time`,
);

fs.mkdirSync(path.join(import.meta.dirname, '../.out'), { recursive: true });
fs.writeFileSync(path.join(import.meta.dirname, '../.out/runtime.json'), `${JSON.stringify(results, null, 2)}\n`);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
