// Spreadsheet bench: a generated dealer price workbook (100,000 rows × 10 columns, written by ExcelJS)
// read by the spreadsheet reader; read and checked against its data model (parseFile, group excel);
// the same through the parse pool, as an upload is (a worker thread with the pool's memory settings);
// and read by SheetJS for reference. Each measurement runs in a process of its own, after the same
// work on a 1,000-row workbook (a running server has compiled its parsers before), and reports its
// time and the growth of its resident memory at its peak (sampled by a thread beside the work, so
// inflate buffers and the pool's worker count too).
//   node --no-node-snapshot --import tsx bench/import/xlsx.ts
//   BENCH_ROWS (100000), BENCH_RUNS (3, the fastest counts)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { seededRandom } from '../../packages/server/test/seeded-random.ts';
import { COLUMNS, DATA_MODEL } from './dealer-prices.ts';

const rowCount = Number(process.env.BENCH_ROWS ?? 100_000);
const runCount = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_MS = 3000;
const TARGET_MIB = 250;

/** The workbook, the same on every run (kept in the temporary folder between runs). */
async function workbookFile(rows: number): Promise<string> {
  const file = path.join(os.tmpdir(), `gdb-bench-xlsx-${rows}.xlsx`);
  if (fs.existsSync(file)) return file;
  const { default: ExcelJS } = await import('exceljs');
  const next = seededRandom(20261125);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Prices');
  sheet.addRow(COLUMNS);
  const brands = ['Renault', 'Dacia', 'Alpine', 'Nissan', 'Mitsubishi'];
  const parts = ['Brake pad set', 'Oil filter', 'Wiper blade', 'Spark plug', 'Air filter', 'Clutch kit', 'Headlamp'];
  for (let i = 0; i < rows; i++) {
    const dealer = `${pick(['FR', 'DE', 'ES', 'IT'])}${String(int(1000)).padStart(3, '0')}`;
    const part = `${pick(['AB1', 'XZ9', 'K7P'])}-${String(int(100_000)).padStart(5, '0')}`;
    const brand = i % 25 === 0 ? '' : pick(brands);
    const validFrom = new Date(Date.UTC(2026, int(12), int(28) + 1));
    sheet.addRow([
      dealer,
      part,
      `${pick(parts)} ${int(90) + 10}`,
      brand,
      int(500),
      int(99_999) / 100 + 1,
      0.2,
      'EUR',
      validFrom,
      `parts.${dealer.toLowerCase()}@dealer.example`,
    ]);
  }
  sheet.getColumn(9).numFmt = 'yyyy-mm-dd';
  fs.writeFileSync(file, new Uint8Array(await book.xlsx.writeBuffer()));
  return file;
}

interface Measure {
  ms: number;
  /** CPU time of the measuring process (the work's own cost on a machine other work shares). */
  cpuMs: number;
  peakMiB: number;
  rows: number;
  valid?: boolean;
}

const SAMPLER = `
const { workerData, parentPort } = require('node:worker_threads');
const peak = new Float64Array(workerData);
setInterval(() => { const rss = process.memoryUsage.rss(); if (rss > peak[0]) peak[0] = rss; }, 2);
parentPort.postMessage('ready');
`;

type Work = (bytes: Uint8Array) => Promise<Omit<Measure, 'ms' | 'cpuMs' | 'peakMiB'>>;

/** The work each mode measures. */
async function workOf(mode: string): Promise<Work> {
  const { readWorkbook } = await import('../../packages/server/src/modules/uploads/parsing/excel/index.ts');
  const { parseFile } = await import('../../packages/server/src/modules/uploads/parsing/parse-file.ts');
  const { createParsePool } = await import('../../packages/server/src/modules/uploads/parsing/parse-pool.ts');
  const { DEFAULT_LIMITS } = await import('../../packages/server/src/modules/uploads/parsing/limits.ts');
  const XLSX = await import('@e965/xlsx');
  const hints = { fields: COLUMNS, required: DATA_MODEL.required };
  if (mode === 'reader') return async (bytes) => ({ rows: readWorkbook(bytes, 'xlsx', hints, DEFAULT_LIMITS).rows.length });
  if (mode === 'parseFile') {
    return async (bytes) => {
      const outcome = parseFile({ bytes, group: 'excel', dataModel: DATA_MODEL });
      return { rows: outcome.rowCount, valid: outcome.status === 'valid' };
    };
  }
  if (mode === 'pool') {
    const pool = createParsePool({ concurrency: 1 });
    return async (bytes) => {
      const outcome = await pool.parse({ bytes: bytes.slice(), group: 'excel', dataModel: DATA_MODEL });
      return { rows: outcome.rowCount, valid: outcome.status === 'valid' };
    };
  }
  return async (bytes) => {
    const book = XLSX.read(bytes, { type: 'array', dense: true });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    return { rows: sheet ? XLSX.utils.sheet_to_json(sheet).length : 0 };
  };
}

/** One measurement, in this (child) process, after the same work on the small workbook. */
async function measure(mode: string, file: string, warmUp: string): Promise<Measure> {
  const work = await workOf(mode);
  await work(new Uint8Array(fs.readFileSync(warmUp)));
  const bytes = new Uint8Array(fs.readFileSync(file));
  const shared = new SharedArrayBuffer(8);
  const peak = new Float64Array(shared);
  const sampler = new Worker(SAMPLER, { eval: true, workerData: shared });
  await new Promise((resolve) => sampler.once('message', resolve));
  const before = process.memoryUsage.rss();
  peak[0] = before;
  const start = performance.now();
  const cpu = process.cpuUsage();
  const out = await work(bytes);
  const ms = Math.round(performance.now() - start);
  const used = process.cpuUsage(cpu);
  const cpuMs = Math.round((used.user + used.system) / 1000);
  peak[0] = Math.max(peak[0] ?? 0, process.memoryUsage.rss());
  await sampler.terminate();
  return { ...out, ms, cpuMs, peakMiB: Math.round(((peak[0] ?? before) - before) / (1024 * 1024)) };
}

function inChild(mode: string, file: string, warmUp: string): Measure {
  const args = ['--no-node-snapshot', '--import', 'tsx', import.meta.filename, '--measure', mode, file, warmUp];
  const out = execFileSync(process.execPath, args, { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

function best(mode: string, file: string, warmUp: string): Measure & { all: string[] } {
  const runs = Array.from({ length: runCount }, () => inChild(mode, file, warmUp));
  const fastest = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  return { ...fastest, peakMiB: Math.max(...runs.map((r) => r.peakMiB)), all: runs.map((r) => `${r.ms}/${r.cpuMs}`) };
}

async function main(): Promise<void> {
  const file = await workbookFile(rowCount);
  const warmUp = await workbookFile(1000);
  const size = fs.statSync(file).size / (1024 * 1024);
  console.log(
    `${rowCount} rows × ${COLUMNS.length} columns, ${size.toFixed(2)} MiB (${file}); ${os.cpus().length} cores, ${os.cpus()[0]?.model}`,
  );
  const results: Record<string, Measure & { all: string[] }> = {};
  for (const mode of ['reader', 'parseFile', 'pool', 'sheetjs']) {
    results[mode] = best(mode, file, warmUp);
    const r = results[mode];
    console.log(
      `${mode.padEnd(9)} ${r.ms} ms (runs ${r.all.join(', ')}), peak RSS growth ${r.peakMiB} MiB, ${r.rows} rows${r.valid === undefined ? '' : r.valid ? ', valid' : ', INVALID'}`,
    );
  }
  const checked = results.pool;
  const met = checked !== undefined && checked.ms <= TARGET_MS && checked.peakMiB <= TARGET_MIB && checked.valid === true;
  console.log(`target: read and checked in ≤ ${TARGET_MS} ms with ≤ ${TARGET_MIB} MiB: ${met ? 'met' : 'MISSED'}`);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (!met) process.exitCode = 1;
}

if (process.argv[2] === '--measure') {
  console.log(JSON.stringify(await measure(process.argv[3] ?? 'reader', process.argv[4] ?? '', process.argv[5] ?? '')));
  // The pool's workers would keep the process alive.
  process.exit(0);
} else {
  await main();
}
