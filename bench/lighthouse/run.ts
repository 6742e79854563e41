// Lighthouse (desktop preset) on /login and on the upload page of a signed-in user, against a
// seeded server serving the built web app and Debian's Chromium. Lighthouse is not a dependency
// (it is large): install it apart and name its command.
//
//   npm run build
//   (cd /tmp/lh && npm install lighthouse@12)
//   LIGHTHOUSE_BIN=/tmp/lh/node_modules/.bin/lighthouse node --no-node-snapshot --import tsx bench/lighthouse/run.ts
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startSpecServer } from '../../e2e/support/server.ts';
import { E2E_PASSWORD, USERS } from '../../e2e/support/users.ts';

const bin = process.env.LIGHTHOUSE_BIN;
if (!bin) {
  console.error('LIGHTHOUSE_BIN must name the lighthouse command (see the top of this file).');
  process.exit(1);
}
const PORT = 9333;
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
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-lighthouse-'));

interface Report {
  categories: Record<string, { score: number }>;
  audits: Record<string, { displayValue?: string }>;
}

/** Runs Lighthouse on the open browser (its storage kept, so a session stays) and prints the scores. */
function audit(url: string, name: string): void {
  const file = path.join(out, `${name}.json`);
  const args = [url, `--port=${PORT}`, '--preset=desktop', '--only-categories=performance,accessibility'];
  const r = spawnSync(bin as string, [...args, '--disable-storage-reset', '--output=json', `--output-path=${file}`, '--quiet'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`lighthouse failed on ${name}:\n${r.stderr}`);
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
  const score = (c: string) => Math.round((report.categories[c]?.score ?? 0) * 100);
  const value = (a: string) => report.audits[a]?.displayValue ?? '-';
  console.log(
    `${name}: performance ${score('performance')}, accessibility ${score('accessibility')}; FCP ${value('first-contentful-paint')}, ` +
      `LCP ${value('largest-contentful-paint')}, TBT ${value('total-blocking-time')}; unused JavaScript ${value('unused-javascript')}; ` +
      `text compression ${value('uses-text-compression')}`,
  );
}

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-lighthouse-web-'));
fs.cpSync(path.resolve(import.meta.dirname, '../../packages/web/dist'), webDist, { recursive: true });
const server = await startSpecServer({ TFA_REQUIRED: 'none', WEB_DIST: webDist });
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-lighthouse-profile-'));
const browser: ChildProcess = spawn(
  process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  [...FLAGS, `--remote-debugging-port=${PORT}`, `--user-data-dir=${profile}`, 'about:blank'],
  { stdio: 'ignore' },
);
try {
  await new Promise((r) => setTimeout(r, 3000));
  audit(`${server.baseUrl}/login`, 'login');
  const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${PORT}`);
  const context = cdp.contexts()[0];
  if (!context) throw new Error('no browser context');
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await page.getByPlaceholder('firstname.lastname').fill(USERS.user.userName);
  await page.getByLabel('Password').fill(E2E_PASSWORD);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await page.close();
  await cdp.close();
  audit(`${server.baseUrl}/import/upload`, 'upload');
} finally {
  if (browser.pid) process.kill(browser.pid, 'SIGTERM');
  await server.stop();
  for (const dir of [webDist, profile, out]) fs.rmSync(dir, { recursive: true, force: true });
}
