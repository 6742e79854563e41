// A large CSV file read and checked in one thread, as a parse worker does with a file in one
// piece: the load bench's 20 MiB dealers file (codes, cities, postal codes and dates that repeat,
// names and e-mail addresses that do not) against the demo's data model, `BENCH_RUNS` times in one
// process. Each run's time, the garbage collector's pauses in it, and the heap V8 had taken by its
// end (the read is synchronous, so nothing can look at the heap during it; the heap taken is not
// given back before a later collection, so it stands for the largest the read needed).
//   node --no-node-snapshot --import tsx bench/import/parse-large.ts
//   BENCH_RUNS (5), BENCH_MIB (19.5)
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { DEMO_DATA_MODEL } from '../../packages/server/src/modules/demo/demo.seed.ts';
import { parseFile } from '../../packages/server/src/modules/uploads/parsing/parse-file.ts';
import { dealersCsv } from '../load/plan.ts';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const mib = Number(process.env.BENCH_MIB ?? 19.5);

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const bytes = dealersCsv({ bytes: Math.round(mib * 1024 * 1024) });
const results: { ms: number; gcMs: number; heapTakenMiB: number; rows: number }[] = [];
for (let i = 0; i < runs; i++) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  gcMs = 0;
  const t0 = performance.now();
  const outcome = parseFile({ bytes, group: 'csv', dataModel: DEMO_DATA_MODEL });
  const ms = performance.now() - t0;
  const heapTakenMiB = Math.round(v8.getHeapStatistics().total_heap_size / 1024 / 1024);
  // The observer hears of the run's collections once the loop turns.
  await new Promise((resolve) => setTimeout(resolve, 20));
  if (outcome.status !== 'valid') throw new Error(`The file was not read as valid: ${outcome.summary}`);
  results.push({ ms: Math.round(ms), gcMs: Math.round(gcMs), heapTakenMiB, rows: outcome.rowCount });
}
const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      fileMiB: Number((bytes.length / 1024 / 1024).toFixed(2)),
      rows: results[0]?.rows,
      runs: results,
      medianMs: sorted[Math.floor(sorted.length / 2)],
      heapTakenMiB: Math.max(...results.map((r) => r.heapTakenMiB)),
    },
    null,
    2,
  ),
);
