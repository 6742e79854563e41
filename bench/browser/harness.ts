// Measures a React component in Debian's headless Chromium, as a user's browser runs it: the page
// entry (a TSX module that calls `exposeBench` from page-kit.ts) is built by Vite in production
// mode, served from 127.0.0.1 and driven through playwright-core. Each measure function runs in
// the page and answers milliseconds; the server and the browser are stopped however the run ends.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';

const WEB_ROOT = path.resolve(import.meta.dirname, '../../packages/web');
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

interface ManifestEntry {
  file: string;
  isEntry?: boolean;
  css?: string[];
}

/** Builds the page entry (a path to a .tsx module) into a new folder with an index.html that loads it. */
export async function buildPage(entry: string): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-page-'));
  await build({
    configFile: false,
    root: WEB_ROOT,
    mode: 'production',
    logLevel: 'warn',
    plugins: [react()],
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      rolldownOptions: { input: path.resolve(entry), output: { strictExecutionOrder: true } },
    },
  });
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestEntry>;
  const main = Object.values(manifest).find((m) => m.isEntry);
  if (!main) throw new Error(`No entry chunk was built for ${entry}.`);
  const css = (main.css ?? []).map((href) => `<link rel="stylesheet" href="/${href}">`).join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">${css}</head><body><div id="root"></div><script type="module" src="/${main.file}"></script></body></html>`;
  fs.writeFileSync(path.join(outDir, 'index.html'), html);
  return outDir;
}

/** Serves a built folder on a free 127.0.0.1 port. */
async function serve(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname;
    const file = path.join(dir, name === '/' ? 'index.html' : path.normalize(name));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface BenchPage {
  page: Page;
  /** Runs `window.__bench[name](...args)` in the page and answers what it answers (milliseconds). */
  call: (name: string, ...args: unknown[]) => Promise<number>;
}

/** Builds and opens the page entry in headless Chromium, runs `work`, then stops everything. */
export async function withBenchPage<T>(entry: string, work: (bench: BenchPage) => Promise<T>): Promise<T> {
  const dir = await buildPage(entry);
  const site = await serve(dir);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: FLAGS,
    });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(site.url);
    await page.waitForFunction(() => (globalThis as { __benchReady?: boolean }).__benchReady === true, undefined, {
      timeout: 60_000,
    });
    const call = async (name: string, ...args: unknown[]) => {
      const ms = await page.evaluate(
        ([fn, rest]) =>
          (globalThis as unknown as { __bench: Record<string, (...a: unknown[]) => Promise<number>> }).__bench[fn as string]?.(
            ...(rest as unknown[]),
          ),
        [name, args] as const,
      );
      if (errors.length > 0) throw new Error(`The page failed: ${errors.join('; ')}`);
      if (typeof ms !== 'number') throw new Error(`The page has no bench function ${name}.`);
      return ms;
    };
    return await work({ page, call });
  } finally {
    await browser?.close();
    await site.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs a page measure `times` times (after `warmup` unrecorded runs) and answers its samples. */
export async function sample(bench: BenchPage, name: string, times: number, warmup = 1, ...args: unknown[]): Promise<number[]> {
  for (let i = 0; i < warmup; i += 1) await bench.call(name, ...args);
  const out: number[] = [];
  for (let i = 0; i < times; i += 1) out.push(await bench.call(name, ...args));
  return out;
}

/** Median, 95th percentile and worst of some samples, in milliseconds rounded to 0.1. */
export function summarise(samples: number[]): { median: number; p95: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const round = (n: number) => Math.round(n * 10) / 10;
  return { median: round(at(0.5)), p95: round(at(0.95)), max: round(sorted[sorted.length - 1] ?? Number.NaN) };
}

/** Prints one line per measure with its target, and answers whether every target held. */
export function report(rows: { name: string; samples: number[]; target: number }[]): boolean {
  let held = true;
  for (const row of rows) {
    const s = summarise(row.samples);
    const ok = s.median <= row.target;
    held &&= ok;
    console.log(
      `${row.name}: median ${s.median} ms, p95 ${s.p95} ms, max ${s.max} ms (target ≤ ${row.target} ms on the median) ${ok ? 'met' : 'NOT met'}`,
    );
  }
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  return held;
}
