// The update and lock screen's bulk calls, as the service runs them (no HTTP):
//   mass-compute: the update list of 1,000 pipelines (100 masters × 10 countries), every one of
//     them with a newer version of its data model to take. Target: 2 s.
//   mass-update: 100 update payloads (the masters), each moving its pipeline onto the newer data
//     model with its repeat job (updateJobs), each in its own transaction. Target: 10 s.
// Each is timed by the clock (mass-compute: the fastest of BENCH_RUNS after a warm-up; mass-update
// runs once, as it changes what it updates).
//   node --no-node-snapshot --import tsx bench/versions/mass.ts
//   BENCH_RUNS (5), BENCH_MASTERS (100), BENCH_COUNTRIES (10),
//   BENCH_DATABASE_URL (a PostgreSQL server: a fresh database is made on it and dropped; PGlite otherwise)
import os from 'node:os';
import { referenceValues } from '../../packages/server/test/factories.ts';
import { benchApp } from './bench-app.ts';

const runCount = Number(process.env.BENCH_RUNS ?? 5);
const masterCount = Number(process.env.BENCH_MASTERS ?? 100);
const countryCount = Number(process.env.BENCH_COUNTRIES ?? 10);
const COMPUTE_TARGET_MS = 2_000;
const UPDATE_TARGET_MS = 10_000;

const { services, ctx, boss, auth, close } = await benchApp('mass');
const reference = await referenceValues({ services, ctx });

/** A master with its countries, all locked, on version 1 of its own data model, which has a version 2. */
async function family(n: number): Promise<{ master: string; schema: string }> {
  const schema = await services.schemas.create({
    name: `bench rows ${n}`,
    jsonSchema: { type: 'object', properties: { sku: { type: 'string' } } },
    userId: boss.id,
  });
  const component = await services.components.save(auth, {
    name: `bench pass ${n}`,
    kind: 'instruction',
    inputs: [{ name: 'rows', inputSchema: schema._id }],
    outputs: [{ name: 'out', outputSchema: schema._id }],
    jsCode: 'ctx.output.out = ctx.input.rows;',
  });
  const common = {
    ...reference,
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
  const master = await services.pipelines.create({ name: `bench master ${n}`, isMaster: true, ...common });
  for (let c = 0; c < countryCount; c++) {
    await services.pipelines.create({
      name: `bench master ${n} country ${c}`,
      isMaster: false,
      masterPipeline: master,
      ...common,
    });
  }
  await services.pipelineVersions.lock(auth, master, true, true);
  await services.versions.newVersion('schema', auth, schema._id);
  await services.imports.create(auth, {
    pipelineId: master,
    kind: 'repeat',
    repeatPattern: 'H 2',
    restartOnError: false,
    listPipelines: [],
  });
  return { master, schema: schema._id };
}

const setupStarted = performance.now();
const families: { master: string; schema: string }[] = [];
for (let n = 0; n < masterCount; n++) families.push(await family(n));
console.log(
  `${ctx.db.engine}: ${masterCount} masters × ${countryCount} countries, set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s; load average ${os.loadavg()[0]?.toFixed(1)}`,
);

const listed = await services.pipelineVersions.massCompute('update', auth);
if (listed.pipelines.masters.length !== masterCount)
  throw new Error(`${listed.pipelines.masters.length} masters to update listed`);
await services.pipelineVersions.massCompute('update', auth);
const clock: number[] = [];
for (let run = 0; run < runCount; run++) {
  const start = performance.now();
  await services.pipelineVersions.massCompute('update', auth);
  clock.push(performance.now() - start);
}
const sorted = [...clock].sort((a, b) => a - b);
const fastest = sorted[0] ?? 0;
const median = sorted[Math.floor(runCount / 2)] ?? 0;
console.log(
  `mass-compute update list of ${masterCount * (countryCount + 1)} pipelines: fastest ${fastest.toFixed(0)} ms, median ${median.toFixed(0)} ms of ${runCount} runs (target ${COMPUTE_TARGET_MS} ms): ${fastest <= COMPUTE_TARGET_MS ? 'met' : 'missed'}`,
);

const started = performance.now();
const answer = await services.pipelineVersions.massUpdate(
  auth,
  families.map((f) => ({ id: f.master, schemasToUpdate: [f.schema], updateJobs: true })),
);
const took = performance.now() - started;
if (answer.errors.length > 0 || answer.jobs.length !== masterCount) {
  throw new Error(`mass-update: ${answer.errors.length} errors, ${answer.jobs.length} jobs moved`);
}
console.log(
  `mass-update of ${masterCount} pipelines with their jobs (${answer.success.length} new versions): ${took.toFixed(0)} ms (target ${UPDATE_TARGET_MS} ms): ${took <= UPDATE_TARGET_MS ? 'met' : 'missed'}; load average ${os.loadavg()[0]?.toFixed(1)}`,
);

await close();
