// The update report of a master pipeline (GET /pipelines/version/compute's work, the service call
// without HTTP): a data model family of 200 versions, a component using version 1 of it, the
// master running that component with a source of that data model, and 500 country pipelines of
// the master (the dependents the report lists, each with its own dependencies read). Target:
// 200 ms. Each run is timed (by the clock, and in CPU time of this process, which holds PGlite); the
// fastest and the median are shown, with the bulk update list of the same pipelines for information.
//   node --no-node-snapshot --import tsx bench/versions/compute.ts
//   BENCH_RUNS (20), BENCH_VERSIONS (200), BENCH_DEPENDENTS (500),
//   BENCH_DATABASE_URL (a PostgreSQL server: a fresh database is made on it and dropped; PGlite otherwise)
import os from 'node:os';
import { benchApp } from './bench-app.ts';

const runCount = Number(process.env.BENCH_RUNS ?? 20);
const versionCount = Number(process.env.BENCH_VERSIONS ?? 200);
const dependentCount = Number(process.env.BENCH_DEPENDENTS ?? 500);
const TARGET_MS = 200;

const { services, ctx, boss, auth, close } = await benchApp('versions');

const setupStarted = performance.now();
const schema = await services.schemas.create({
  name: 'bench prices',
  jsonSchema: { type: 'object', properties: { sku: { type: 'string' }, price: { type: 'number' } } },
  userId: boss.id,
});
await services.versions.lock('schema', auth, schema._id);
let last = schema._id;
for (let v = 2; v <= versionCount; v++) last = (await services.versions.newVersion('schema', auth, last))._id;
const component = await services.components.save(auth, {
  name: 'bench pass',
  kind: 'instruction',
  inputs: [{ name: 'rows', inputSchema: schema._id }],
  outputs: [{ name: 'out', outputSchema: schema._id }],
  jsCode: 'ctx.output.out = ctx.input.rows;',
});
const common = {
  component: component._id,
  dataSources: [
    {
      dataSubKind: 'rows',
      connectorType: 'manual' as const,
      dataFromMaster: false,
      contentType: 'csv' as const,
      dataModel: schema._id,
    },
  ],
  dataSinks: [{ name: 'out', format: 'CSV' as const, target: null }],
};
const master = await services.pipelines.create({ name: 'bench master', isMaster: true, ...common });
for (let i = 0; i < dependentCount; i++) {
  await services.pipelines.create({
    name: `bench country ${String(i).padStart(4, '0')}`,
    isMaster: false,
    masterPipeline: master,
    ...common,
  });
}
await services.pipelineVersions.lock(auth, master, true, true);
console.log(
  `${ctx.db.engine}: ${versionCount} versions of a data model, ${dependentCount} country pipelines, set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s; load average ${os.loadavg()[0]?.toFixed(1)}`,
);

/** Times `work` runCount times (after one warm-up run): the fastest and the median in ms, by the clock and in CPU time of this process. */
async function timed(work: () => Promise<unknown>) {
  await work();
  const clock: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runCount; run++) {
    const start = performance.now();
    const used = process.cpuUsage();
    await work();
    const spent = process.cpuUsage(used);
    clock.push(performance.now() - start);
    cpu.push((spent.user + spent.system) / 1000);
  }
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const [c, u] = [sorted(clock), sorted(cpu)];
  const mid = Math.floor(runCount / 2);
  return { fastest: c[0] ?? 0, median: c[mid] ?? 0, cpuMedian: u[mid] ?? 0 };
}

const report = await services.pipelineVersions.compute(master, auth);
const [schemaEntry] = report.data.schemas;
if (report.data.pipelines.length !== dependentCount || schemaEntry?.newVersionNumber !== versionCount) {
  throw new Error(
    `unexpected report: ${report.data.pipelines.length} countries, data model to v${schemaEntry?.newVersionNumber}`,
  );
}
const compute = await timed(() => services.pipelineVersions.compute(master, auth));
const list = await timed(() => services.pipelineVersions.massCompute('update', auth));
const ms = (x: number) => `${x.toFixed(0)} ms`;
console.log(
  `compute: fastest ${ms(compute.fastest)}, median ${ms(compute.median)} of ${runCount} runs (target ${TARGET_MS} ms, on the fastest as the other benches): ${compute.fastest <= TARGET_MS ? 'met' : 'missed'}; CPU of this process, median ${ms(compute.cpuMedian)}; load average ${os.loadavg()[0]?.toFixed(1)}`,
);
console.log(
  `mass-compute update list of the ${dependentCount + 1} pipelines: fastest ${ms(list.fastest)}, median ${ms(list.median)}, CPU median ${ms(list.cpuMedian)}`,
);

await close();
