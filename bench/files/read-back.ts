// A large file read back from the database file store (PostgreSQL): by the store (a binary COPY of
// its parts) and, for comparison, by the plain query it replaced (each part's bytea as hex text);
// and the same file written to the store (a binary COPY of its parts).
// Each way is timed by the clock and in CPU time of this process (the server's share of the work),
// alternating, BENCH_RUNS times each; the median and the fastest are shown.
//   BENCH_DATABASE_URL=postgresql://…/test node --no-node-snapshot --import tsx bench/files/read-back.ts
//   BENCH_RUNS (7), BENCH_MIB (20)
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { databaseFileStore } from '../../packages/server/src/platform/files/database-file-store.ts';
import { createTestDb } from '../../packages/server/test/test-db.ts';

const runs = Number(process.env.BENCH_RUNS ?? 7);
const mib = Number(process.env.BENCH_MIB ?? 20);
const url = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (!url) throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL server: the embedded database keeps its files locally.');
process.env.DATABASE_URL = url;

const testDb = await createTestDb();
const { db } = testDb;
const store = databaseFileStore(db);
const bytes = crypto.randomBytes(mib * 1024 * 1024);
const key = await store.put(bytes);

/** The way it was read before: one query, every part's bytea as hex text, joined. */
async function byQuery(): Promise<Buffer> {
  const r = await sql<{ bytes: Uint8Array }>`select bytes from file_blobs where key = ${key} order by part`.execute(db.kysely);
  return Buffer.concat(r.rows.map((row) => row.bytes));
}

interface Timing {
  ms: number;
  cpuMs: number;
}

async function timed(read: () => Promise<Buffer>): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const got = await read();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (!got.equals(bytes)) throw new Error('The file read back differs from the one stored.');
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** The file written again to the store (as a new file); answers what was written. */
async function written(): Promise<Buffer> {
  await store.put(bytes);
  return bytes;
}

const ways = {
  'binary COPY (the store)': () => store.get(key),
  'query, hex text': byQuery,
  'written by the store (binary COPY in)': written,
};
const timings = new Map<string, Timing[]>(Object.keys(ways).map((name) => [name, []]));
try {
  for (let run = 0; run <= runs; run++) {
    for (const [name, read] of Object.entries(ways)) {
      const t = await timed(read);
      if (run > 0) timings.get(name)?.push(t); // the first round warms the connections up
    }
  }
} finally {
  await testDb.drop();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const round = (v: number) => Math.round(v);
const result = Object.fromEntries(
  [...timings].map(([name, ts]) => [
    name,
    {
      medianMs: round(median(ts.map((t) => t.ms))),
      fastestMs: round(Math.min(...ts.map((t) => t.ms))),
      medianCpuMs: round(median(ts.map((t) => t.cpuMs))),
    },
  ]),
);
console.log(JSON.stringify({ fileMiB: mib, runs, result }, null, 2));
