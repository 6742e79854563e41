// The review on the server (the service calls without HTTP): an upload of 20,000 rows, each with a
// problem, read for its review (the file read again and every row checked, then the first page), and
// batches of 1,000 corrected rows each checked again. Target: a batch answers in ≤ 500 ms. Every
// batch also checks again the rows corrected before it (the stored corrections), so later batches
// carry more: each is shown.
//   node --no-node-snapshot --import tsx bench/review/recheck.ts
//   BENCH_BATCHES (5), BENCH_DATABASE_URL (a PostgreSQL server; PGlite otherwise)
import os from 'node:os';
import { benchApp } from '../versions/bench-app.ts';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 5);
const ROWS = 20_000;
const BATCH = 1_000;
const TARGET_MS = 500;

const { services, auth, close } = await benchApp('review');
try {
  const model = await services.schemas.create({
    name: 'bench dealers',
    jsonSchema: {
      type: 'object',
      required: ['dealerCode', 'name', 'city'],
      properties: {
        dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
        name: { type: 'string', minLength: 1 },
        city: { type: 'string', minLength: 1 },
        email: { type: 'string', format: 'email' },
        vehicles: { type: 'integer', minimum: 0 },
      },
    },
  });
  const pipelineId = await services.pipelines.create({
    name: 'bench review',
    isMaster: true,
    dataSinks: [],
    dataSources: [
      { dataSubKind: 'dealers', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: model._id },
    ],
  });
  const lines = ['dealerCode,name,city,email,vehicles'];
  for (let i = 0; i < ROWS; i += 1) lines.push(`FR${String(i % 1000).padStart(3, '0')},Dealer ${i},Lyon,d${i}@example.test,many`);
  const bytes = Buffer.from(lines.join('\n'));
  const [uploadId] = await services.uploads.receive(auth, pipelineId, [
    { dataSubKind: 'dealers', filename: 'bench.csv', mimetype: 'text/csv', bytes },
  ]);
  await services.uploads.settled();
  if (!uploadId) throw new Error('No upload');

  const filters = { offset: 0, limit: 1000, all: false };
  let started = performance.now();
  const first = await services.review.read(auth, uploadId, filters);
  const openMs = performance.now() - started;
  started = performance.now();
  await services.review.read(auth, uploadId, filters);
  const againMs = performance.now() - started;
  console.log(`read for review: ${first.problemRows} rows with a problem of ${first.rowCount}`);
  console.log(`  first read (file read and checked): ${openMs.toFixed(1)} ms; next read: ${againMs.toFixed(1)} ms`);

  const times: number[] = [];
  for (let b = 0; b < BATCHES; b += 1) {
    const changes = Array.from({ length: BATCH }, (_, i) => ({ rowIndex: b * BATCH + i, field: 'vehicles', value: String(i) }));
    started = performance.now();
    const answer = await services.review.correct(auth, uploadId, { changes, removals: [], restores: [] });
    const ms = performance.now() - started;
    times.push(ms);
    console.log(
      `  batch ${b + 1}: ${BATCH} rows corrected (${b * BATCH} before): ${ms.toFixed(1)} ms, ${answer.problemRows} rows with a problem left`,
    );
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const firstBatch = times[0] ?? 0;
  console.log(
    `re-check of 1,000 corrected rows: first ${firstBatch.toFixed(1)} ms, median ${median.toFixed(1)} ms (target ≤ ${TARGET_MS} ms); load ${os.loadavg()[0]?.toFixed(2)}`,
  );
  process.exitCode = firstBatch <= TARGET_MS ? 0 : 1;
} finally {
  await close();
}
