import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The server as `npm start` runs it: built by scripts/build-server.mjs and run as plain JavaScript,
// with the parse worker's script and the sandbox's prelude read from the build. Built into a folder
// of its own beside dist/, so a build running meanwhile (`npm test`'s) changes nothing here.
const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, `packages/server/.tmp/built-${process.pid}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-built-'));
const password = 'Built-server-1-password';
let child: ChildProcess | undefined;
let base = '';

/** Starts dist/main.js on the embedded database and resolves with its address once it listens. */
function start(): Promise<string> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD: password,
      TFA_REQUIRED: 'none',
    };
    delete env.DATABASE_URL;
    delete env.ADMIN_USERNAME;
    child = spawn(process.execPath, ['--no-node-snapshot', path.join(dist, 'main.js')], { cwd: os.tmpdir(), env });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no listen within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

async function call(method: string, url: string, token?: string, body?: { bytes: Buffer; type: string }) {
  const headers: Record<string, string> = {};
  if (token) headers['x-token'] = token;
  if (body) headers['content-type'] = body.type;
  const res = await fetch(`${base}/gdb-importer/v1${url}`, { method, headers, body: body?.bytes });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--out', dist], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed:\n${built.stderr}`);
  base = await start();
}, 120_000);

afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the built server', () => {
  it('is its bundles and the files they read', () => {
    expect(fs.readdirSync(dist).sort()).toEqual([
      'main.js',
      'migrate.js',
      'model-compile-worker.cjs',
      'parse-worker.cjs',
      'sandbox',
      'worker.js',
    ]);
  });

  it('checks an upload in a parse worker and runs a component in the sandbox', async () => {
    const login = await call('POST', '/users/login', undefined, {
      bytes: Buffer.from(JSON.stringify({ username: 'super.admin', password })),
      type: 'application/json',
    });
    expect(login.status).toBe(200);
    const token: string = login.body.data.token.value;

    const pipelines = await call('GET', '/pipelines', token);
    expect(pipelines.status, JSON.stringify(pipelines.body)).toBe(200);
    const france = pipelines.body.data.find((p: { name: string }) => p.name === 'Dealers France');
    const boundary = 'built-server-boundary';
    const csv = 'dealerCode,name,city,postalCode,email,vehicles,openedOn\nFR001,Garage,Lyon,69002,a@b.example,4,2019-04-01\n';
    const multipart = [
      `--${boundary}\r\nContent-Disposition: form-data; name="pipelineId"\r\n\r\n${france._id}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="dealers"; filename="d.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const uploaded = await call('POST', '/uploads', token, {
      bytes: Buffer.from(multipart),
      type: `multipart/form-data; boundary=${boundary}`,
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const [id] = uploaded.body.data;
    let status = 'pending';
    for (let i = 0; i < 150 && (status === 'pending' || status === 'processing'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await call('GET', `/uploads/status?ids=${id}`, token)).body.data[0].status;
    }
    expect(status).toBe('valid');

    const components = await call('GET', '/components/list', token);
    const [component] = components.body.data;
    const run = await call('POST', `/components/${component._id}/execute`, token, {
      bytes: Buffer.from(JSON.stringify({ payload: { dealers: [] }, rt_context: { pipeline: { name: 'Dealers France' } } })),
      type: 'application/json',
    });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.data.logs.map((l: { message: string }) => l.message)).toEqual(['0 dealers mapped for Dealers France.']);
  }, 60_000);
});
