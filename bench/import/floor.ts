// The floor for the CSV import bench: a hand-written script doing the same work on the same 20 MiB
// dealer price file in one process, with no server, no store and no sandbox — read the file,
// parse it with papaparse, check each row with ajv against the same data model (an empty cell of
// an optional field is no value), map the rows with the pipeline's own mapping, write the CSV
// output with papaparse. Each phase in wall and CPU time, best of BENCH_RUNS. `npm run
// bench:import:csv` gives the product's phases on the same file; the gap between the two is what
// the server's walls (HTTP, the store, the workers, the sandbox, the database) cost.
//   node --no-node-snapshot --import tsx bench/import/floor.ts
//   BENCH_ROWS (200000), BENCH_RUNS (3)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Papa from 'papaparse';
import { DATA_MODEL, generateCsv, MAPPING } from './dealer-prices.ts';

const rowCount = Number(process.env.BENCH_ROWS ?? 200_000);
const runCount = Number(process.env.BENCH_RUNS ?? 3);

type Row = Record<string, unknown>;
interface Phase {
  wallMs: number;
  cpuMs: number;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-floor-'));
const inputPath = path.join(dir, 'prices.csv');
fs.writeFileSync(inputPath, generateCsv(rowCount));

const ajv = new Ajv({ allErrors: true, coerceTypes: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(DATA_MODEL);
const required = new Set(DATA_MODEL.required);
const map = new Function('ctx', MAPPING) as (ctx: { input: { prices: Row[] }; output: Row; log: object }) => void;

/** Runs one phase and answers its value with its wall and CPU time. */
function timed<T>(phases: Record<string, Phase>, name: string, work: () => T): T {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = work();
  const cpu = process.cpuUsage(cpu0);
  phases[name] = { wallMs: Math.round(performance.now() - t0), cpuMs: Math.round((cpu.user + cpu.system) / 1000) };
  return value;
}

/** Checks every row as the upload check does: empty optional cells dropped, types coerced, all problems counted. */
function check(rows: Row[]): number {
  let invalid = 0;
  for (const row of rows) {
    for (const key of Object.keys(row)) if (row[key] === '' && !required.has(key)) delete row[key];
    if (!validate(row)) invalid++;
  }
  return invalid;
}

function once(): Record<string, Phase> {
  const phases: Record<string, Phase> = {};
  const text = timed(phases, 'read file', () => fs.readFileSync(inputPath, 'utf8'));
  const parsed = timed(phases, 'parse', () => Papa.parse<Row>(text, { header: true, skipEmptyLines: true }));
  if (parsed.data.length !== rowCount) throw new Error(`papaparse read ${parsed.data.length} rows`);
  const invalid = timed(phases, 'check', () => check(parsed.data));
  if (invalid > 0) throw new Error(`${invalid} rows failed the check`);
  const ctx = { input: { prices: parsed.data }, output: {} as Row, log: { info: () => undefined } };
  timed(phases, 'map', () => map(ctx));
  const csv = timed(phases, 'write CSV', () => Papa.unparse(ctx.output.prices as Row[]));
  timed(phases, 'write file', () => fs.writeFileSync(path.join(dir, 'out.csv'), csv));
  return phases;
}

const runs = Array.from({ length: runCount }, once);
const total = (phases: Record<string, Phase>) => Object.values(phases).reduce((sum, p) => sum + p.wallMs, 0);
const best = runs.reduce((a, b) => (total(b) < total(a) ? b : a));
fs.rmSync(dir, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      loadAverage: os.loadavg().map((n) => Number(n.toFixed(1))),
      rows: rowCount,
      phases: best,
      totalMs: total(best),
      cpuMs: Object.values(best).reduce((sum, p) => sum + p.cpuMs, 0),
      runsTotalMs: runs.map(total),
      rowsPerSecond: Math.round((rowCount / total(best)) * 1000),
    },
    null,
    2,
  ),
);
