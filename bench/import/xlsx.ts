// Spreadsheet bench: a generated dealer price workbook (100,000 rows × 10 columns, written by ExcelJS)
// read by the spreadsheet reader, then read and checked against its data model as an upload is
// (parseFile, group excel), and read by SheetJS for reference. Each measurement runs in a process
// of its own, which reports its time and the growth of its resident memory at its peak (sampled by
// a thread beside the work, so inflate buffers count too).
//   node --no-node-snapshot --import tsx bench/import/xlsx.ts
//   BENCH_ROWS (100000), BENCH_RUNS (3, the fastest counts)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { seededRandom } from '../../packages/server/test/seeded-random.ts';

const rowCount = Number(process.env.BENCH_ROWS ?? 100_000);
const runCount = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_MS = 3000;
const TARGET_MIB = 250;

const COLUMNS = [
  'dealerCode',
  'partNumber',
  'description',
  'brand',
  'quantity',
  'unitPrice',
  'vatRate',
  'currency',
  'validFrom',
  'email',
];

const DATA_MODEL = {
  type: 'object',
  required: ['dealerCode', 'partNumber', 'description', 'quantity', 'unitPrice', 'currency'],
  additionalProperties: false,
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    partNumber: { type: 'string', pattern: '^[A-Z0-9]{3}-[0-9]{5}$' },
    description: { type: 'string', minLength: 1, maxLength: 200 },
    brand: { type: 'string', enum: ['', 'Renault', 'Dacia', 'Alpine', 'Nissan', 'Mitsubishi'] },
    quantity: { type: 'integer', minimum: 0 },
    unitPrice: { type: 'number', minimum: 0 },
    vatRate: { type: 'number', minimum: 0, maximum: 1 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    validFrom: { type: 'string', format: 'date' },
    email: { type: 'string', format: 'email' },
  },
};

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

/** One measurement, in this (child) process: reader, parseFile or SheetJS. */
async function measure(mode: string, file: string): Promise<Measure> {
  const { readWorkbook } = await import('../../packages/server/src/modules/uploads/parsing/excel/index.ts');
  const { parseFile } = await import('../../packages/server/src/modules/uploads/parsing/parse-file.ts');
  const { DEFAULT_LIMITS } = await import('../../packages/server/src/modules/uploads/parsing/limits.ts');
  const XLSX = await import('@e965/xlsx');
  const bytes = new Uint8Array(fs.readFileSync(file));
  const shared = new SharedArrayBuffer(8);
  const peak = new Float64Array(shared);
  const sampler = new Worker(SAMPLER, { eval: true, workerData: shared });
  await new Promise((resolve) => sampler.once('message', resolve));
  const before = process.memoryUsage.rss();
  peak[0] = before;
  const start = performance.now();
  let out: Omit<Measure, 'ms' | 'peakMiB'>;
  if (mode === 'reader') {
    const hints = { fields: COLUMNS, required: DATA_MODEL.required };
    out = { rows: readWorkbook(bytes, 'xlsx', hints, DEFAULT_LIMITS).rows.length };
  } else if (mode === 'parseFile') {
    const outcome = parseFile({ bytes, group: 'excel', dataModel: DATA_MODEL });
    out = { rows: outcome.rowCount, valid: outcome.status === 'valid' };
  } else {
    const book = XLSX.read(bytes, { type: 'array', dense: true });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    out = { rows: sheet ? XLSX.utils.sheet_to_json(sheet).length : 0 };
  }
  const ms = Math.round(performance.now() - start);
  peak[0] = Math.max(peak[0] ?? 0, process.memoryUsage.rss());
  await sampler.terminate();
  return { ...out, ms, peakMiB: Math.round(((peak[0] ?? before) - before) / (1024 * 1024)) };
}

function inChild(mode: string, file: string): Measure {
  const out = execFileSync(
    process.execPath,
    ['--no-node-snapshot', '--import', 'tsx', import.meta.filename, '--measure', mode, file],
    {
      encoding: 'utf8',
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
}

function best(mode: string, file: string): Measure & { all: number[] } {
  const runs = Array.from({ length: runCount }, () => inChild(mode, file));
  const fastest = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  return { ...fastest, peakMiB: Math.max(...runs.map((r) => r.peakMiB)), all: runs.map((r) => r.ms) };
}

async function main(): Promise<void> {
  const file = await workbookFile(rowCount);
  const size = fs.statSync(file).size / (1024 * 1024);
  console.log(
    `${rowCount} rows × ${COLUMNS.length} columns, ${size.toFixed(2)} MiB (${file}); ${os.cpus().length} cores, ${os.cpus()[0]?.model}`,
  );
  const results: Record<string, Measure & { all: number[] }> = {};
  for (const mode of ['reader', 'parseFile', 'sheetjs']) {
    results[mode] = best(mode, file);
    const r = results[mode];
    console.log(
      `${mode.padEnd(9)} ${r.ms} ms (runs ${r.all.join(', ')}), peak RSS growth ${r.peakMiB} MiB, ${r.rows} rows${r.valid === undefined ? '' : r.valid ? ', valid' : ', INVALID'}`,
    );
  }
  const checked = results.parseFile;
  const met = checked !== undefined && checked.ms <= TARGET_MS && checked.peakMiB <= TARGET_MIB && checked.valid === true;
  console.log(`target: read and checked in ≤ ${TARGET_MS} ms with ≤ ${TARGET_MIB} MiB: ${met ? 'met' : 'MISSED'}`);
  if (!met) process.exitCode = 1;
}

if (process.argv[2] === '--measure') {
  console.log(JSON.stringify(await measure(process.argv[3] ?? 'reader', process.argv[4] ?? '')));
} else {
  await main();
}
