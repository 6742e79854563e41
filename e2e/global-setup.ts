// Once per e2e run: build the web app if needed, start a seeded server on a free 127.0.0.1 port
// (a fresh database), and stop it (by its PID) when the run ends.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startCheckService } from './support/check-service.ts';
import { startSpecServer } from './support/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The URL prefix of the check service the forms' ajax rules may ask (FORM_CHECK_URLS). */
    checkUrl: string;
    /** The run's copy of the web app's build, for the servers a spec starts of its own. */
    webDist: string;
  }
}

const root = path.resolve(import.meta.dirname, '..');

export default async function setup(project: TestProject) {
  // Screenshots of failed tests from an earlier run would only mislead.
  fs.rmSync(path.join(root, 'e2e/.artifacts'), { recursive: true, force: true });
  // WEB_DIST names a build made elsewhere; without it the build of packages/web/dist is used (made when missing).
  const built = process.env.WEB_DIST ?? path.join(root, 'packages/web/dist');
  if (!process.env.WEB_DIST && !fs.existsSync(path.join(built, 'index.html'))) {
    // A production build: the test runner's NODE_ENV=test would give antd's development build, whose
    // ids are all 'test-id' (every dialog then named by the first of them).
    const env = { ...process.env, NODE_ENV: 'production' };
    const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, encoding: 'utf8', env });
    if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
  }
  // The server reads its own copy of the build, so a rebuild during the run changes nothing.
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-e2e-web-'));
  fs.cpSync(built, webDist, { recursive: true });
  const checks = await startCheckService();
  // The SDK's vulnerability report reads the advisory fixture the demo uses.
  const advisories = path.join(root, 'docs/examples/osv-npm-advisories.json');
  const server = await startSpecServer({
    TFA_REQUIRED: 'none',
    WEB_DIST: webDist,
    FORM_CHECK_URLS: checks.prefix,
    SDK_ADVISORIES: advisories,
    // The listeners' brokers run on this machine (RabbitMQ 127.0.0.1:5672): let listeners reach them.
    LISTENER_PRIVATE_RANGES: '127.0.0.0/8',
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('checkUrl', checks.prefix);
  project.provide('webDist', webDist);

  return async () => {
    await server.stop();
    await checks.stop();
    fs.rmSync(webDist, { recursive: true, force: true });
  };
}
