import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { superAdmin } from '../../../test/factories.ts';
import { csvSource, sink } from '../../../test/imports-kit.ts';
import { createTestDb } from '../../../test/test-db.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { loadConfig } from '../../platform/config.ts';
import { type Db, openDb } from '../../platform/db/index.ts';

// A worker process killed in the middle of a run (SIGKILL: no chance to clean up). Another
// instance notices once the lease is stale (within a minute by default): the import fails, or runs again when its job restarts on
// error; the pipeline is free again and every upload is intact. Leases are shortened to 3 s here
// (`IMPORT_LEASE_S`, 30 by default) so the take-over comes within seconds.

const LEASE_S = '3';
/** The real-time source the test controls listens on this machine: its host listed, its loopback range opened. */
const SOURCE_SETTINGS = { REALTIME_SOURCE_HOSTS: '127.0.0.1', REALTIME_SOURCE_PRIVATE_RANGES: '127.0.0.1/32' };
/** The lease, a look by the instance left (every second here) and that instance's start, with room for a slow machine. */
const TAKE_OVER_MS = 20_000;

const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const pgUrl = process.env.DATABASE_URL;

let dataDir: string;
let dropDb: () => Promise<void> = async () => {};
let dbUrl: string | undefined;
let app: BuiltApp | undefined;
let auth: AuthContext;
let source: http.Server;
let sourceUrl: string;
/** Resolved when the real-time source gets a request it holds without answering. */
let held: Promise<void>;
let holdNext = true;
const sockets = new Set<import('node:net').Socket>();

/** Opens the database: a new one on the server, or PGlite in the data folder (one process at a time). */
async function openTheDb(): Promise<Db> {
  return dbUrl ? openDb({ databaseUrl: dbUrl }) : openDb({ dataDir });
}

async function start(): Promise<BuiltApp> {
  const db = await openTheDb();
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'silent', FILE_STORE: 'database', IMPORT_LEASE_S: LEASE_S, ...SOURCE_SETTINGS },
    { tfaRequired: 'none' },
  );
  const built = await buildApp(config, { db, web: false });
  built.app.addHook('onClose', async () => {
    await db.close();
  });
  await built.app.ready();
  return built;
}

async function stop(): Promise<void> {
  await app?.app.close();
  app = undefined;
}

function holdRequests(): void {
  holdNext = true;
  held = new Promise((resolve) => {
    source.once('held', resolve);
  });
}

/** Starts `npm run worker`'s program against the same database and waits until it works. */
async function spawnWorker(): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    FILE_STORE: 'database',
    IMPORT_CONCURRENCY: '1',
    IMPORT_LEASE_S: LEASE_S,
    ...SOURCE_SETTINGS,
  };
  if (dbUrl) env.DATABASE_URL = dbUrl;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'packages/server/src/worker.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker started')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** An import of a pipeline whose real-time source the test controls, and one manual upload. */
async function prepare(name: string, restartOnError: boolean) {
  if (!app) throw new Error('no app');
  const s = app.services;
  const [brand] = await s.reference.brands();
  const [locale] = await s.reference.locales();
  const [productLine] = await s.reference.productLines();
  const [datakind] = await s.reference.datakinds();
  const component = await s.components.save(superAdmin(), {
    name: `${name} component`,
    kind: 'instruction',
    inputs: [{ name: 'base' }, { name: 'prices' }],
    outputs: [{ name: 'out' }],
    jsCode: 'ctx.output.out = [...ctx.input.base, ...ctx.input.prices];',
  });
  const pipelineId = await s.pipelines.create({
    name,
    isMaster: false,
    component: component._id,
    dataSources: [csvSource('base'), csvSource('prices', { connectorType: 'real-time', url: `${sourceUrl}/${name}.csv` })],
    dataSinks: [sink('out')],
    brand: brand?._id ?? null,
    locale: locale?._id ?? null,
    productLine: productLine?._id ?? null,
    datakind: datakind?._id ?? null,
  });
  const [uploadId] = await s.uploads.receive(auth, pipelineId, [
    { dataSubKind: 'base', filename: 'base.csv', mimetype: 'text/csv', bytes: Buffer.from('code,price\nBASE,1\n') },
  ]);
  await s.uploads.settled();
  const { importId } = await s.imports.create(auth, {
    pipelineId,
    kind: 'immediate',
    restartOnError,
    listPipelines: [],
  });
  return { pipelineId, importId, uploadId: uploadId ?? '' };
}

async function stateOf(importId: string) {
  if (!app) throw new Error('no app');
  return app.ctx.db.kysely.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirstOrThrow();
}

async function waitUntil(importId: string, states: string[], ms: number) {
  const deadline = Date.now() + ms;
  let row = await stateOf(importId);
  while (!states.includes(row.state) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    row = await stateOf(importId);
  }
  return row;
}

/** Runs the scenario: the worker takes the import, is killed while the run waits, another instance takes over. */
async function killDuringRun(name: string, restartOnError: boolean) {
  app = await start();
  const prepared = await prepare(name, restartOnError);
  if (!dbUrl) await stop(); // PGlite: one process at a time holds the data folder
  holdRequests();
  const worker = await spawnWorker();
  await held; // the worker's run is busy fetching the real-time source
  await kill(worker);
  const killedAt = Date.now();
  holdNext = false;
  app ??= await start();
  const during = await stateOf(prepared.importId);
  expect(during.state).toBe('busy');
  await app.services.imports.startWorking({ concurrency: 1 });
  return { ...prepared, killedAt };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-faults-'));
  if (pgUrl) {
    const testDb = await createTestDb();
    dbUrl = testDb.url;
    dropDb = testDb.drop;
  }
  source = http.createServer((_req, res) => {
    if (holdNext) {
      holdNext = false;
      source.emit('held');
      return; // never answered: the run waits here until its worker dies
    }
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end('code,price\nLIVE,2\n');
  });
  source.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  app = await start();
  const admin = await app.services.users.create({
    firstName: 'Fault',
    lastName: 'Tester',
    userName: 'fault.tester',
    email: 'fault@example.test',
    roles: ['super-admin'],
    password: 'Str0ng!Passw0rd',
  });
  auth = { userId: admin.id, sessionId: 'test', userName: admin.user_name, roles: ['super-admin'] };
  await stop();
}, 120_000);

afterAll(async () => {
  await stop();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => source.close(resolve));
  await dropDb();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a worker killed during a run', () => {
  it('leaves its import failed once its lease is stale, the pipeline free and every upload intact', async () => {
    const { importId, pipelineId, uploadId, killedAt } = await killDuringRun('killed', false);
    const row = await waitUntil(importId, ['failed'], TAKE_OVER_MS);
    expect(row).toMatchObject({ state: 'failed', success: false });
    expect(Date.now() - killedAt).toBeLessThan(TAKE_OVER_MS);
    if (!app) throw new Error('no app');
    const messages = (await app.services.logs.forImport(importId)).map((l) => l.message);
    expect(messages).toEqual(expect.arrayContaining(['The worker running this import stopped.', 'Import failed.']));

    const upload = await app.ctx.db.kysely.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirstOrThrow();
    expect(upload).toMatchObject({ status: 'valid', enabled: true });
    expect((await app.services.files.get(upload.file_key ?? '')).toString()).toBe('code,price\nBASE,1\n');

    // The pipeline is free: a new import runs to the end.
    const again = await app.services.imports.create(auth, {
      pipelineId,
      kind: 'immediate',
      restartOnError: false,
      listPipelines: [],
    });
    expect((await waitUntil(again.importId, ['done', 'failed'], 30_000)).state).toBe('done');
  }, 180_000);

  it('runs the import again when its job restarts on error', async () => {
    await stop();
    const { importId, killedAt } = await killDuringRun('restarted', true);
    const row = await waitUntil(importId, ['done', 'failed'], TAKE_OVER_MS);
    expect(Date.now() - killedAt).toBeLessThan(TAKE_OVER_MS);
    expect(row).toMatchObject({ state: 'done', success: true, attempts: 2 });
    if (!app) throw new Error('no app');
    const messages = (await app.services.logs.forImport(importId)).map((l) => l.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'The worker running this import stopped.',
        'The import starts again (attempt 2 of 3).',
        'Input prices: 1 row from restarted.csv.',
        'Import done.',
      ]),
    );
  }, 180_000);
});
