// SDK modules benchmark: a component whose SDK function uses an npm module (dayjs) against the same
// component using none — the first test run of each (the module bundled, the program built and
// compiled), the second, and the median of the runs after.
//   node --no-node-snapshot --import tsx bench/runtime/sdk-module.ts   (BENCH_CALLS)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';

const calls = Number(process.env.BENCH_CALLS ?? 300);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-sdk-module-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  TFA_REQUIRED: 'none',
  SDK_MODULES: 'dayjs',
  DEMO_DATA: 'false',
});
const { app, services } = await buildApp(config, { web: false });
const boss = {
  userId: '00000000-0000-0000-0000-000000000000',
  sessionId: 'bench',
  userName: 'bench',
  roles: ['super-admin' as const],
};

const plainFn = await services.sdk.save(boss, {
  functionName: 'yearPlain',
  jsCode: 'function (d) { return String(d).slice(0, 4); }',
});
const moduleFn = await services.sdk.save(boss, {
  functionName: 'yearDayjs',
  jsCode: "function (d) { return require('dayjs')(d).format('YYYY'); }",
  modules: [{ name: 'dayjs', version: '' }],
});

async function component(name: string, fnId: string, call: string) {
  const made = await services.components.create({ name, outputs: [{ name: 'y' }] });
  return services.components.save(boss, {
    _id: made._id,
    sys_version: made.sys_version,
    name,
    sdk: [fnId],
    outputs: [{ name: 'y' }],
    jsCode: `ctx.output.y = sdk.${call}('2026-03-01');`,
  });
}
const plain = await component('Year plain', plainFn._id, 'yearPlain');
const withModule = await component('Year dayjs', moduleFn._id, 'yearDayjs');

const timed = async (id: string) => {
  const started = performance.now();
  const result = await services.runtime.testComponent(boss.userId, id, {}, {});
  if (result.output.y !== '2026') throw new Error(`unexpected output ${JSON.stringify(result.output)}`);
  return performance.now() - started;
};

// A third component warms the isolates first, so neither measured component pays for that.
const warm = await component('Warm up', plainFn._id, 'yearPlain');
for (let i = 0; i < 20; i++) await timed(warm._id);

const figures: Record<string, { first: number; second: number; median: number }> = {};
for (const [label, c] of [
  ['no module', plain],
  ['dayjs', withModule],
] as const) {
  const first = await timed(c._id);
  const second = await timed(c._id);
  const rest: number[] = [];
  for (let i = 0; i < calls; i++) rest.push(await timed(c._id));
  rest.sort((a, b) => a - b);
  figures[label] = { first, second, median: rest[Math.floor(rest.length / 2)] ?? Number.NaN };
}
const ms = (v: number | undefined) => `${(v ?? Number.NaN).toFixed(2)} ms`;
console.log(`Node ${process.version}, ${os.availableParallelism()} cores, load ${os.loadavg()[0]?.toFixed(1)}`);
console.table(
  Object.fromEntries(
    Object.entries(figures).map(([k, f]) => [k, { first: ms(f.first), second: ms(f.second), median: ms(f.median) }]),
  ),
);
const gap = (key: 'second' | 'median') => (figures.dayjs?.[key] ?? 0) - (figures['no module']?.[key] ?? 0);
console.log(`module − none: second test ${ms(gap('second'))}, median ${ms(gap('median'))} (target ≤ 2 ms)`);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
