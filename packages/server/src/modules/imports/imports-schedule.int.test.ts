import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nextRun, parseRepeatPattern } from '@gdb/shared/imports/repeat-pattern';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { superAdmin } from '../../../test/factories.ts';
import { csvSource, sink } from '../../../test/imports-kit.ts';
import { createTestDb } from '../../../test/test-db.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { loadConfig } from '../../platform/config.ts';
import { type Db, openDb } from '../../platform/db/index.ts';
import { CLOCK_CRON, CLOCK_QUEUE } from './job-queue.ts';

// Two server instances on one database, and restarts: due times run once, and no job is lost.

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let secondDb: Db;
let dataDir: string;
let a: BuiltApp;
let b: BuiltApp;
let auth: AuthContext;
let component: string;

const config = () => loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', FILE_STORE: 'database' }, { tfaRequired: 'none' });

async function instance(db: Db): Promise<BuiltApp> {
  const built = await buildApp(config(), { db, web: false });
  await built.app.ready();
  return built;
}

/** The second instance, on the same database: on PostgreSQL through a connection of its own. */
async function startSecond(): Promise<void> {
  secondDb = testDb.url ? await openDb({ databaseUrl: testDb.url }) : testDb.db;
  b = await instance(secondDb);
}

/** Makes a job due now, as if its next run had come: the job and its waiting import. */
async function makeDue(app: BuiltApp, jobId: string, at: Date): Promise<void> {
  const k = app.ctx.db.kysely;
  const job = await k.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
  await k
    .updateTable('imports')
    .set({ scheduled_at: at })
    .where('job_id', '=', jobId)
    .where('state', '=', 'pending')
    .where('scheduled_at', '=', job.next_run_at ?? new Date(0))
    .execute();
  await k.updateTable('jobs').set({ next_run_at: at }).where('id', '=', jobId).execute();
}

/** A runnable pipeline with one valid upload. */
async function newPipeline(app: BuiltApp, name: string): Promise<string> {
  const [brand] = await app.services.reference.brands();
  const [locale] = await app.services.reference.locales();
  const [productLine] = await app.services.reference.productLines();
  const [datakind] = await app.services.reference.datakinds();
  const id = await app.services.pipelines.create({
    name,
    isMaster: false,
    component,
    dataSources: [csvSource('prices')],
    dataSinks: [sink('out')],
    brand: brand?._id ?? null,
    locale: locale?._id ?? null,
    productLine: productLine?._id ?? null,
    datakind: datakind?._id ?? null,
  });
  await app.services.uploads.receive(auth, id, [
    { dataSubKind: 'prices', filename: 'prices.csv', mimetype: 'text/csv', bytes: Buffer.from('code,price\nA,1\n') },
  ]);
  await app.services.uploads.settled();
  return id;
}

async function runsQueued(app: BuiltApp, jobId: string): Promise<number> {
  const r = await app.ctx.db.query(
    `select count(*)::int as n from pgboss.job j join imports i on i.id::text = j.data->>'importId'
     where j.name = 'import-run' and i.job_id = $1`,
    [jobId],
  );
  return Number(r.rows[0]?.n ?? 0);
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-schedule-'));
  testDb = await createTestDb();
  a = await instance(testDb.db);
  await startSecond();
  const admin = await a.services.users.create({
    firstName: 'Sched',
    lastName: 'Uler',
    userName: 'sched.uler',
    email: 'sched@example.test',
    roles: ['super-admin'],
    password: 'Str0ng!Passw0rd',
  });
  auth = { userId: admin.id, sessionId: 'test', userName: admin.user_name, roles: ['super-admin'] };
  const saved = await a.services.components.save(superAdmin(), {
    name: 'copy',
    kind: 'instruction',
    inputs: [{ name: 'prices' }],
    outputs: [{ name: 'out' }],
    jsCode: 'ctx.output.out = ctx.input.prices;',
  });
  component = saved._id;
});

afterAll(async () => {
  if (b !== a) await b?.app.close();
  await a?.app.close();
  if (secondDb !== testDb.db) await secondDb.close();
  await testDb.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('repeat jobs on two instances', () => {
  it('run a due time once, however many instances tick at once, and wait for the next one', async () => {
    const pipelineId = await newPipeline(a, 'every quarter');
    const { jobId } = await a.services.imports.create(auth, {
      pipelineId,
      kind: 'repeat',
      repeatPattern: 'M 15',
      restartOnError: false,
      listPipelines: [],
    });
    const due = new Date(Date.now() - 1000);
    await makeDue(a, jobId, due);
    const fired = await Promise.all([a.services.imports.tick(), b.services.imports.tick(), a.services.imports.tick()]);
    expect(fired.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await runsQueued(a, jobId)).toBe(1);
    expect(await a.services.imports.tick()).toBe(0);

    const job = await a.ctx.db.kysely.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    const pattern = parseRepeatPattern('M 15');
    if (!pattern) throw new Error('pattern');
    expect(job.next_run_at?.getTime()).toBeGreaterThan(Date.now());
    expect(job.next_run_at?.getTime()).toBeLessThanOrEqual(nextRun(pattern, new Date()).getTime());
    expect(job.last_executed_at).toBeInstanceOf(Date);
    const waiting = await a.ctx.db.kysely
      .selectFrom('imports')
      .select(['scheduled_at', 'state'])
      .where('job_id', '=', jobId)
      .orderBy('scheduled_at')
      .execute();
    expect(waiting.map((w) => [w.scheduled_at?.getTime(), w.state])).toEqual([
      [due.getTime(), 'pending'],
      [job.next_run_at?.getTime(), 'pending'],
    ]);
  });

  it('run a due time that passed while no instance ran once, late, then the next future one', async () => {
    const other = await newPipeline(b, 'hourly');
    const { jobId } = await a.services.imports.create(auth, {
      pipelineId: other,
      kind: 'repeat',
      repeatPattern: 'H 1',
      restartOnError: false,
      listPipelines: [],
    });
    await makeDue(a, jobId, new Date(Date.now() - 3 * 3600_000));
    expect(await b.services.imports.tick()).toBe(1);
    expect(await a.services.imports.tick()).toBe(0);
    expect(await runsQueued(a, jobId)).toBe(1);
    const job = await a.ctx.db.kysely.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(job.next_run_at?.getTime()).toBeGreaterThan(Date.now());
  });
});

describe('restarts', () => {
  // The test below leaves one instance that works runs; the tests above want two that do not.
  afterAll(async () => {
    await a.services.imports.stopWorking();
    if (b === a) await startSecond();
  });

  it('lose no scheduled or repeat job: a new instance lists them and runs them when due', async () => {
    const pipelineId = await newPipeline(a, 'later');
    const monthly = await a.services.imports.create(auth, {
      pipelineId: await newPipeline(b, 'monthly'),
      kind: 'repeat',
      repeatPattern: '0 12 1 * *',
      restartOnError: false,
      listPipelines: [],
    });
    const later = await b.services.imports.create(auth, {
      pipelineId,
      kind: 'scheduled',
      scheduledDate: '2099-06-01',
      scheduledTime: '12:00',
      restartOnError: false,
      listPipelines: [],
    });
    const before = await a.services.imports.listScheduled(auth);
    expect(before.scheduled.map((j) => j._id)).toContain(later.jobId);
    expect(before.repeatable.map((j) => j._id)).toContain(monthly.jobId);
    const schedules = await a.ctx.db.query('select name, cron from pgboss.schedule');
    expect(schedules.rows).toEqual([{ name: CLOCK_QUEUE, cron: CLOCK_CRON }]);

    // Both instances stop; a new one starts on the same database.
    await b.app.close();
    await a.app.close();
    if (secondDb !== testDb.db) await secondDb.close();
    secondDb = testDb.db;
    a = await instance(testDb.db);
    b = a;
    expect(await a.services.imports.listScheduled(auth)).toEqual(before);
    expect((await a.ctx.db.query('select name, cron from pgboss.schedule')).rows).toEqual([
      { name: CLOCK_QUEUE, cron: CLOCK_CRON },
    ]);

    // Its time comes: the clock queue (fed by pg-boss's cron every minute) runs it.
    await makeDue(a, later.jobId, new Date(Date.now() - 1000));
    await a.services.imports.startWorking();
    await (await a.services.imports.queue.ready()).send(CLOCK_QUEUE, {});
    const deadline = Date.now() + 30_000;
    let state = '';
    while (Date.now() < deadline && state !== 'done') {
      await new Promise((r) => setTimeout(r, 200));
      const row = await a.ctx.db.kysely.selectFrom('imports').select('state').where('id', '=', later.importId).executeTakeFirst();
      state = row?.state ?? '';
    }
    expect(state).toBe('done');
    const job = await a.ctx.db.kysely.selectFrom('jobs').selectAll().where('id', '=', later.jobId).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ state: 'done', next_run_at: null });
    expect(job.last_executed_at).toBeInstanceOf(Date);
  }, 90_000);
});
