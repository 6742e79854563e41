// Data model from an example file: a CSV file of just under 20 MiB (the upload limit) read by the
// upload readers and its data model inferred (POST /schemas/generate's work once the file has
// arrived), in this process. Target: 2 s. Each run is timed; the fastest and the median are shown.
//   node --no-node-snapshot --import tsx bench/schemas/generate.ts
//   BENCH_RUNS (5)
import os from 'node:os';
import { MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import { generateSchema } from '../../packages/server/src/modules/schemas/schema-generate.ts';
import { seededRandom } from '../../packages/server/test/seeded-random.ts';

const runCount = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 2000;
const HEADER = 'id,dealer,quantity,price,active,since,updatedAt,email,note';

/** Rows of every type the inference tells apart, some fields left empty, up to `maxBytes`. */
function exampleCsv(maxBytes: number): Buffer {
  const next = seededRandom(20261125);
  const int = (n: number) => Math.floor(next() * n);
  const lines: string[] = [HEADER];
  let size = HEADER.length + 1;
  for (let i = 1; ; i++) {
    const day = `2026-${String(int(12) + 1).padStart(2, '0')}-${String(int(28) + 1).padStart(2, '0')}`;
    const line = [
      i,
      `Dealer ${int(5000)}`,
      int(500),
      (int(99_999) / 100).toFixed(2),
      next() < 0.5 ? 'true' : 'false',
      day,
      `${day}T${String(int(24)).padStart(2, '0')}:15:00Z`,
      `parts.${int(5000)}@dealer.example`,
      i % 7 === 0 ? '' : `note ${int(1000)}`,
    ].join(',');
    if (size + line.length + 1 > maxBytes) break;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

const bytes = exampleCsv(MAX_FILE_BYTES - 1024);
console.log(`file: ${(bytes.length / 1024 / 1024).toFixed(1)} MiB; load average ${os.loadavg()[0]?.toFixed(1)}`);
const times: number[] = [];
let schema: Record<string, unknown> = {};
for (let run = 0; run < runCount; run++) {
  const start = performance.now();
  schema = generateSchema(bytes, true);
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const fastest = times[0] ?? 0;
const median = times[Math.floor(times.length / 2)] ?? 0;
console.log(JSON.stringify(schema));
console.log(
  `generate: fastest ${fastest.toFixed(0)} ms, median ${median.toFixed(0)} ms of ${runCount} runs (target ${TARGET_MS} ms): ${fastest <= TARGET_MS ? 'met' : 'missed'}; load average ${os.loadavg()[0]?.toFixed(1)}`,
);
