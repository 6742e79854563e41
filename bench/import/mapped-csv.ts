// Import benchmark, a mapped CSV file: the 20 MiB dealer price file with its header written as a
// dealer's own system writes it ("Dealer Code", "Unit Price", "E-Mail", and a Notes column the data
// model does not have), imported through the data source's stored column mapping, against the same
// file with the data model's names. Each is received, parsed and checked, imported now and its
// output written; the runs alternate, the fastest of each counts. Target: the mapped file within
// 1.1× the time of the other (exits 1 beyond).
//   node --no-node-snapshot --import tsx bench/import/mapped-csv.ts
//   BENCH_ROWS (200000), BENCH_RUNS (3 of each), BENCH_DATABASE_URL (an empty PostgreSQL database; PGlite otherwise)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { COLUMNS, dealerPricesPipelines, generateCsv } from './dealer-prices.ts';

const rowCount = Number(process.env.BENCH_ROWS ?? 200_000);
const runCount = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_RATIO = 1.1;

/** The header as a dealer's system writes it, column for column, and the column it adds. */
const WRITTEN: Record<(typeof COLUMNS)[number], string> = {
  dealerCode: 'Dealer Code',
  partNumber: 'Part Number',
  description: 'Description',
  brand: 'BRAND',
  quantity: 'Quantity',
  unitPrice: 'Unit Price',
  vatRate: 'VAT rate',
  currency: 'Currency',
  validFrom: 'Valid From',
  email: 'E-Mail',
};

const COPY = "ctx.output.prices = ctx.input.prices; ctx.log.info(ctx.input.prices.length + ' price rows mapped.');";

const exactText = generateCsv(rowCount);
// The mapped file: the same rows, its header renamed, and a Notes column, empty but for every 50th row.
const [header = '', ...lines] = exactText.trimEnd().split('\n');
const renamed = header
  .split(',')
  .map((c) => WRITTEN[c as (typeof COLUMNS)[number]])
  .join(',');
const mappedText = `${[`${renamed},Notes`, ...lines.map((l, i) => `${l},${i % 50 === 0 ? 'checked' : ''}`)].join('\n')}\n`;
const exact = Buffer.from(exactText);
const mapped = Buffer.from(mappedText);
if (mapped.length > MAX_FILE_BYTES) throw new Error(`the mapped file (${mapped.length} bytes) is above the upload limit`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-mapped-'));
const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', TFA_REQUIRED: 'none' };
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const config = loadConfig(env);
const { app, services, ctx } = await buildApp(config, { web: false });
const k = ctx.db.kysely;
const admin = await services.users.create({
  firstName: 'bench',
  lastName: 'mapped',
  userName: 'bench.mapped',
  email: 'bench.mapped@example.test',
  roles: ['super-admin'],
  password: 'Bench!Passw0rd',
});
const auth = { userId: admin.id, sessionId: 'bench', userName: admin.user_name, roles: ['super-admin'] };

const pipeline = await dealerPricesPipelines(services, admin.id, { name: 'Copy dealer prices', jsCode: COPY });
await services.imports.startWorking({ concurrency: 1 });

/** A pipeline whose source has the mapping of the mapped file's header stored. */
async function mappedPipeline(name: string): Promise<string> {
  const id = await pipeline(name);
  const columns = [...COLUMNS.map((field) => ({ column: WRITTEN[field], field })), { column: 'Notes', field: null }];
  await services.uploads.saveMapping(auth, { pipelineId: id, dataSubKind: 'prices', columns });
  return id;
}

/** Receives a file into a pipeline, checks it, imports it now; answers the check's and the whole's time. */
async function importFile(pipelineId: string, bytes: Buffer, rows: number) {
  const t0 = performance.now();
  const [uploadId] = await services.uploads.receive(auth, pipelineId, [
    { dataSubKind: 'prices', filename: 'prices.csv', mimetype: 'text/csv', bytes },
  ]);
  await services.uploads.settled();
  const checked = performance.now();
  const upload = await k
    .selectFrom('uploads')
    .selectAll()
    .where('id', '=', uploadId ?? '')
    .executeTakeFirstOrThrow();
  if (upload.status !== 'valid' || upload.row_count !== rows) {
    const logs = (await services.logs.forUploads([upload.id])).map((l) => l.message);
    throw new Error(`the upload is ${upload.status}: ${logs.slice(0, 5).join(' | ')}`);
  }
  const { importId } = await services.imports.create(auth, {
    pipelineId,
    kind: 'immediate',
    restartOnError: false,
    listPipelines: [],
  });
  for (;;) {
    const row = await k.selectFrom('imports').select(['state']).where('id', '=', importId).executeTakeFirstOrThrow();
    if (row.state === 'done') break;
    if (row.state === 'failed' || row.state === 'aborted') throw new Error(`the import ended ${row.state}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const end = performance.now();
  return { checkMs: checked - t0, totalMs: end - t0 };
}

// A warm-up through each path: the parse workers and the sandbox are booted.
await importFile(await pipeline('warm exact'), Buffer.from(generateCsv(100)), 100);
await importFile(await mappedPipeline('warm mapped'), Buffer.from(mappedText.split('\n').slice(0, 101).join('\n')), 100);
await new Promise((r) => setTimeout(r, 5000));

const runs: { exact: { checkMs: number; totalMs: number }[]; mapped: { checkMs: number; totalMs: number }[] } = {
  exact: [],
  mapped: [],
};
const exactRun = async (i: number) =>
  runs.exact.push(await importFile(await pipeline(`exact ${i + 1}`), Buffer.from(exact), rowCount));
const mappedRun = async (i: number) =>
  runs.mapped.push(await importFile(await mappedPipeline(`mapped ${i + 1}`), Buffer.from(mapped), rowCount));
// Each goes first every other time, with a pause before each run: neither always follows the other's import.
for (let i = 0; i < runCount; i++) {
  for (const run of i % 2 === 0 ? [exactRun, mappedRun] : [mappedRun, exactRun]) {
    await run(i);
    await new Promise((r) => setTimeout(r, 5000));
  }
}
await services.imports.stopWorking(1000);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const best = (list: { totalMs: number }[]) => Math.min(...list.map((r) => r.totalMs));
const ratio = best(runs.mapped) / best(runs.exact);
const round = (n: number) => Math.round(n);
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString().slice(0, 16),
      engine: ctx.db.engine,
      cores: os.availableParallelism(),
      loadAverage: os.loadavg().map((n) => Number(n.toFixed(1))),
      rows: rowCount,
      exactMiB: Number((exact.length / 1024 / 1024).toFixed(2)),
      mappedMiB: Number((mapped.length / 1024 / 1024).toFixed(2)),
      exactMs: runs.exact.map((r) => ({ check: round(r.checkMs), total: round(r.totalMs) })),
      mappedMs: runs.mapped.map((r) => ({ check: round(r.checkMs), total: round(r.totalMs) })),
      ratio: Number(ratio.toFixed(3)),
      targetRatio: TARGET_RATIO,
    },
    null,
    2,
  ),
);
process.exit(ratio <= TARGET_RATIO ? 0 : 1);
