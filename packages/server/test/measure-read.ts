// Reads one spreadsheet in a process of its own and prints what it cost as JSON: the time taken (wall
// clock, and CPU time, which other work on a shared machine does not stretch) and the growth of the
// process's resident memory at its peak (sampled by a thread beside the read, so inflate buffers and
// every other allocation count, not only the JavaScript heap).
//   node --import tsx packages/server/test/measure-read.ts FILE xlsx|xls '{"fields":[…],"required":[…]}' '{limits}'
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorMessage } from '../src/platform/error-message.ts';
import { watchPeakRss } from './peak-rss.ts';

export interface ReadCost {
  /** Wall-clock time of the read. */
  ms: number;
  /** CPU time the reading process spent on it: the read's own cost, whatever else the machine runs. */
  cpuMs: number;
  peakRssGrowthMiB: number;
  rows?: number;
  refused?: string;
}

/** Runs a read in a child process and answers its cost (used by tests, which give the file's bytes). */
export function measureRead(bytes: Uint8Array, format: 'xlsx' | 'xls', hints: object, limits: object = {}): ReadCost {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'measure-read-'));
  const file = path.join(dir, `book.${format}`);
  fs.writeFileSync(file, bytes);
  try {
    const out = execFileSync(
      process.execPath,
      [
        '--no-node-snapshot',
        '--import',
        'tsx',
        import.meta.filename,
        file,
        format,
        JSON.stringify(hints),
        JSON.stringify(limits),
      ],
      { encoding: 'utf8', maxBuffer: 1024 * 1024 },
    );
    return JSON.parse(out.trim().split('\n').at(-1) ?? '{}');
  } finally {
    fs.rmSync(dir, { recursive: true });
  }
}

async function main(argv: string[]): Promise<void> {
  const [file = '', format = 'xlsx', hints = '{}', limits = '{}'] = argv;
  const { readWorkbook } = await import('../src/modules/uploads/parsing/excel/index.ts');
  const { DEFAULT_LIMITS } = await import('../src/modules/uploads/parsing/limits.ts');
  const bytes = new Uint8Array(fs.readFileSync(file));
  const peak = await watchPeakRss();
  const start = performance.now();
  const cpu = process.cpuUsage();
  const cost: ReadCost = { ms: 0, cpuMs: 0, peakRssGrowthMiB: 0 };
  try {
    const table = readWorkbook(bytes, format === 'xls' ? 'xls' : 'xlsx', JSON.parse(hints), {
      ...DEFAULT_LIMITS,
      ...JSON.parse(limits),
    });
    cost.rows = table.rows.length;
  } catch (error) {
    cost.refused = errorMessage(error);
  }
  cost.ms = Math.round(performance.now() - start);
  const used = process.cpuUsage(cpu);
  cost.cpuMs = Math.round((used.user + used.system) / 1000);
  cost.peakRssGrowthMiB = await peak.stop();
  console.log(JSON.stringify(cost));
}

if (process.argv[1] === import.meta.filename) await main(process.argv.slice(2));
