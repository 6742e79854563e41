import fs from 'node:fs';
import path from 'node:path';
import { parseDownloadReference } from '@gdb/shared/imports/import-rules';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvSource, importKit, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let kit: Awaited<ReturnType<typeof importKit>>;
let user: { token: string; id: string };
let manager: { token: string; id: string };

/** How many files the app's file store holds. */
async function storedFiles(): Promise<number> {
  if (t.services.files.kind === 'database') {
    const r = await sql<{ n: string }>`select count(distinct key) as n from file_blobs`.execute(t.ctx.db.kysely);
    return Number(r.rows[0]?.n ?? 0);
  }
  const root = path.join(t.ctx.config.dataDir, 'files');
  if (!fs.existsSync(root)) return 0;
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/**
 * Runs a component writing its output `out` to a CSV data sink, on a one-row upload: how the
 * import ended, its log lines, its output files and how many files the store gained.
 */
async function runToCsvSink(name: string, jsCode: string) {
  const component = await kit.component(jsCode, ['prices'], ['out']);
  const pipelineId = await kit.pipeline({ name, component, sources: [csvSource('prices')], sinks: [sink('out')] });
  await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
  const storedBefore = await storedFiles();
  const { importId } = (await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } })).body
    .data;
  const ended = await kit.waitFor(importId, ['done', 'failed']);
  const logs = (await t.services.logs.forImport(importId)).map((l) => l.message);
  const files = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('import_id', '=', importId).execute();
  return { ended, logs, files, storedFiles: (await storedFiles()) - storedBefore };
}

const DOUBLE = `ctx.output.out = ctx.input.prices.map((r) => ({ code: r.code, price: r.price * 2 }));
ctx.output.store = ctx.input.prices.map((r) => ({ code: r.code, price: r.price }));
ctx.log.info('doubled ' + ctx.input.prices.length + ' rows for ' + ctx.rt_context.pipeline.name);`;

beforeAll(async () => {
  t = await createTestApp();
  kit = await importKit(t);
  const u = await t.signedIn(['user']);
  user = { token: u.token, id: u.user.id };
  const m = await t.signedIn(['manager']);
  manager = { token: m.token, id: m.user.id };
  await t.services.imports.startWorking({ concurrency: 2 });
});
afterAll(async () => {
  await t.close();
});

describe('an immediate import', () => {
  it('runs the component on the enabled valid uploads and writes one file per data sink, logging every step', async () => {
    const component = await kit.component(DOUBLE, ['prices'], ['out', 'store']);
    const pipelineId = await kit.pipeline({
      name: 'prices FR',
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out', 'CSV'), sink('store', 'JSON', { table: 'prices_fr', keyFields: ['code'] })],
    });
    await kit.assign(user.id, pipelineId);
    const old = await kit.upload(user.token, pipelineId, 'prices', 'code,price\nOLD,9\n', 'old.csv');
    await t.call('POST', '/uploads/disable', { token: user.token, body: { id: old } });
    await kit.upload(user.token, pipelineId, 'prices', 'code,price\nA,1\nB,2.5\n', 'prices.csv');

    const res = await t.call('POST', '/imports', { token: user.token, body: { pipelineId, kind: 'immediate' } });
    expect(res.status).toBe(200);
    const { jobId, importId } = res.body.data;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);

    const done = await kit.waitFor(importId, ['done', 'failed']);
    expect(done).toMatchObject({ state: 'done', success: true, progress: 100, user_id: user.id });
    expect(done.started_at).toBeInstanceOf(Date);
    expect(done.end_at).toBeInstanceOf(Date);

    const logs = await t.call('GET', `/logs/jobs?id=${importId}`, { token: user.token });
    expect(logs.status).toBe(200);
    const lines: { level: string; message: string }[] = logs.body.data;
    const messages = lines.map((l) => l.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        `Import queued by ${await userName(user.id)}.`,
        'Import of pipeline prices FR (v1) started.',
        'Input prices: 2 rows from prices.csv.',
        'Running the component on 2 input rows.',
        'doubled 2 rows for prices FR',
        'Data store prices_fr: 2 rows upserted.',
        'Import done.',
      ]),
    );
    expect(new Set(lines.map((l) => l.level))).toEqual(new Set(['info', 'success']));

    // The CSV sink has no data-store target: its file is meant to be downloaded.
    const references = messages.map(parseDownloadReference).filter((r) => r !== null);
    expect(references).toHaveLength(1);
    const [reference] = references;
    expect(reference?.fileName).toMatch(/^prices_FR_out_\d{8}T\d{6}Z\.csv$/);
    const exported = await t.app.inject({
      method: 'POST',
      url: '/gdb-importer/v1/uploads/export',
      headers: { 'x-token': user.token },
      payload: { uploadIds: [reference?.uploadId] },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toBe('code,price\nA,2\nB,5\n');

    const outputs = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('import_id', '=', importId).execute();
    expect(outputs.map((o) => [o.from, o.data_sub_kind, o.status, o.row_count]).sort()).toEqual([
      ['destination', 'out', 'valid', 2],
      ['destination', 'store', 'valid', 2],
    ]);
    // Without a data model a CSV cell stays text.
    const stored = await t.services.datastore.rows('prices_fr');
    expect(stored.map((r) => r.data)).toEqual([
      { code: 'A', price: '1' },
      { code: 'B', price: '2.5' },
    ]);

    const scheduled = await t.call('GET', `/imports/job?pipelineId=${pipelineId}`, { token: user.token });
    expect(scheduled.body.data.imp).toMatchObject({ _id: importId, state: 'done', success: true, jobKind: 'immediate' });
    expect(scheduled.body.data.job).toMatchObject({ _id: jobId, jobKind: 'immediate', state: 'done' });
  });

  it("answers the output files of the pipeline's latest run that wrote any, to those who may use it", async () => {
    const component = await kit.component(DOUBLE, ['prices'], ['out', 'store']);
    const pipelineId = await kit.pipeline({
      name: 'prices outputs',
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out', 'CSV'), sink('store', 'JSON')],
    });
    await kit.assign(user.id, pipelineId);
    const outputs = (token: string, id: string) => t.call('GET', `/uploads/outputs?pipelineId=${id}`, { token });

    // Never run: nothing to export.
    const none = await outputs(user.token, pipelineId);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);

    const run = async (csv: string) => {
      await kit.upload(user.token, pipelineId, 'prices', csv, 'prices.csv');
      const { importId } = (await t.call('POST', '/imports', { token: user.token, body: { pipelineId, kind: 'immediate' } })).body
        .data;
      await kit.waitFor(importId, ['done', 'failed']);
      return importId as string;
    };
    await run('code,price\nA,1\n');
    const second = await run('code,price\nB,2\nC,3\n');

    const latest = await outputs(user.token, pipelineId);
    expect(latest.status).toBe(200);
    const files: { _id: string; dataSubKind: string; rowCount: number | null }[] = latest.body.data;
    expect(files.map((f) => f.dataSubKind).sort()).toEqual(['out', 'store']);
    const rows = await t.ctx.db.kysely
      .selectFrom('uploads')
      .select(['id', 'import_id'])
      .where(
        'id',
        'in',
        files.map((f) => f._id),
      )
      .execute();
    expect(rows.every((r) => r.import_id === second)).toBe(true);

    // A manager reads them too.
    expect((await outputs(manager.token, pipelineId)).body.data).toHaveLength(2);

    // A user not assigned to the pipeline, and malformed ids, are refused.
    const other = await t.signedIn(['user']);
    const refused = await outputs(other.token, pipelineId);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.data ?? []).toEqual([]);
    expect((await outputs(user.token, 'not-an-id')).status).toBe(422);
    expect((await t.call('GET', '/uploads/outputs', { token: user.token })).status).toBe(422);
    expect((await t.call('GET', `/uploads/outputs?pipelineId=${pipelineId}`)).status).toBe(401);
  });

  it("never offers a failed import's partial output files: the last done import's stay offered", async () => {
    // The second sink fails once the first is written: 42 is not a row.
    const code = `ctx.output.out = ctx.input.prices; ctx.output.bad = ctx.input.prices.length > 1 ? 42 : [];`;
    const component = await kit.component(code, ['prices'], ['out', 'bad']);
    const pipelineId = await kit.pipeline({
      name: 'prices partial outputs',
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out', 'CSV'), sink('bad', 'JSON')],
    });
    const run = async (csv: string) => {
      await kit.upload(manager.token, pipelineId, 'prices', csv, 'prices.csv');
      const { importId } = (await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } }))
        .body.data;
      return { importId: importId as string, ended: await kit.waitFor(importId, ['done', 'failed']) };
    };
    const done = await run('code,price\nA,1\n');
    expect(done.ended.state).toBe('done');
    const failed = await run('code,price\nB,2\nC,3\n');
    expect(failed.ended.state).toBe('failed');
    // The failed run wrote its CSV file before failing: stored, but withdrawn.
    const written = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('import_id', '=', failed.importId).execute();
    expect(written.map((u) => [u.data_sub_kind, u.status])).toEqual([['out', 'invalid']]);
    const offered = (await t.call('GET', `/uploads/outputs?pipelineId=${pipelineId}`, { token: manager.token })).body.data;
    const rows = await t.ctx.db.kysely
      .selectFrom('uploads')
      .select('import_id')
      .where(
        'id',
        'in',
        offered.map((f: { _id: string }) => f._id),
      )
      .execute();
    expect(rows.map((r) => r.import_id)).toEqual([done.importId, done.importId]);
  });

  it('starts an import waiting for its pipeline within a second of the running one ending', async () => {
    const busy = 'const end = Date.now() + 2000; while (Date.now() < end) {} ctx.output.out = ctx.input.prices;';
    const component = await kit.component(busy, ['prices'], ['out']);
    const pipelineId = await kit.pipeline({
      name: 'prices wake',
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out')],
    });
    await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
    // A job scheduled for later, then an import now.
    const later = await t.call('POST', '/imports', {
      token: manager.token,
      body: { pipelineId, kind: 'scheduled', scheduledDate: '2099-01-01', scheduledTime: '10:00' },
    });
    const waiting: string = later.body.data.importId;
    const { importId: first } = (
      await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } })
    ).body.data;
    await kit.waitFor(first, ['progress']);
    // A file sent while the first runs: the first took A, the next run takes this one.
    await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nB,1\n', 'b.csv');
    // The scheduled one falls due while the first runs: it is queued, finds the pipeline busy and waits.
    await t.services.imports.tick(new Date('2099-01-01T10:01:00Z'));
    const messages = async () => (await t.services.logs.forImport(waiting)).map((l) => l.message);
    const deadline = Date.now() + 10_000;
    while (!(await messages()).includes('Waiting: another import of this pipeline is running.') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await messages()).toContain('Waiting: another import of this pipeline is running.');
    const ended = await kit.waitFor(first, ['done', 'failed']);
    const started = await kit.waitFor(waiting, ['busy', 'progress', 'done', 'failed'], 15_000);
    // Woken by the end of the first, not by its retry 15 s later (a poll of the queue is 1 s).
    expect((started.started_at?.getTime() ?? Number.POSITIVE_INFINITY) - (ended.end_at?.getTime() ?? 0)).toBeLessThan(2_500);
    // It runs to its end before the next test counts the stored files.
    expect((await kit.waitFor(waiting, ['done', 'failed'])).state).toBe('done');
  });

  it('fails with the component error in the logs and frees the pipeline', async () => {
    const component = await kit.component(`throw new Error('price list is empty');`, ['prices'], ['out']);
    const pipelineId = await kit.pipeline({ name: 'broken', component, sources: [csvSource('prices')], sinks: [sink('out')] });
    await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
    const { importId } = (await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } }))
      .body.data;
    const failed = await kit.waitFor(importId, ['done', 'failed']);
    expect(failed).toMatchObject({ state: 'failed', success: false });
    const logs = await t.services.logs.forImport(importId);
    const errors = logs.filter((l) => l.level === 'error').map((l) => l.message);
    expect(errors.some((m) => m.includes('price list is empty'))).toBe(true);
    expect(errors.at(-1)).toBe('Import failed.');
    const again = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } });
    expect(again.status).toBe(200);
  });

  it("stores no CSV file with a formula cell, even from a component that disarms the sandbox's escaping", async () => {
    const escaped = (jsCode: string) => runToCsvSink('formulas', jsCode);
    const formula = `ctx.output.out = [{ code: '=HYPERLINK("http://evil")', price: -2 }];`;
    const plain = await escaped(formula);
    expect(plain.ended.state).toBe('done');
    const [file] = plain.files;
    const exported = await t.app.inject({
      method: 'POST',
      url: '/gdb-importer/v1/uploads/export',
      headers: { 'x-token': manager.token },
      payload: { uploadIds: [file?.id] },
    });
    expect(exported.body).toBe('code,price\n"\'=HYPERLINK(""http://evil"")",-2\n');

    const disarmed = await escaped(`RegExp.prototype.test = () => false; String.prototype.includes = () => false;\n${formula}`);
    expect(disarmed.ended).toMatchObject({ state: 'failed', success: false });
    expect(disarmed.logs).toContain('Data sink out: the CSV the component wrote cannot be stored.');
    expect(disarmed.files).toEqual([]);
    // Checked before it is stored: the file store keeps nothing of it.
    expect(disarmed.storedFiles).toBe(0);
    expect(plain.storedFiles).toBe(1);

    // A sandbox made to write CSV for a port whose sink is a JSON file: that text is not taken.
    const component = await kit.component(
      'Array.prototype.includes = () => true; ctx.output.out = [{ code: "A", price: 1 }];',
      ['prices'],
      ['out'],
    );
    const pipelineId = await kit.pipeline({
      name: 'json out',
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out', 'JSON')],
    });
    await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
    const { importId } = (await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } }))
      .body.data;
    await kit.waitFor(importId, ['done', 'failed']);
    const files = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('import_id', '=', importId).execute();
    expect(files.filter((f) => f.content_type === 'text/csv')).toEqual([]);
  });

  it('stores a CSV file the sandbox hands over in pieces as it writes it, and nothing of one whose later piece fails', async () => {
    const run = (jsCode: string) => runToCsvSink('pieces', jsCode);
    // About 5 MiB of CSV: more than two pieces of 2 MiB.
    const rows = (last: string) => `const text = 'x'.repeat(80);
      ctx.output.out = Array.from({ length: 60000 }, (_, i) => ({ code: i === 59999 ? ${last} : 'C' + i, text }));`;
    const whole = await run(rows("'last'"));
    expect(whole.ended.state).toBe('done');
    const [file] = whole.files;
    expect(file).toMatchObject({ row_count: 60000, content_type: 'text/csv' });
    const bytes = await t.services.files.get(file?.file_key ?? '');
    expect(file?.size).toBe(bytes.length);
    expect(bytes.length).toBeGreaterThan(4 * 1024 * 1024);
    const lines = bytes.toString().split('\n');
    expect(lines.slice(0, 2)).toEqual(['code,text', `C0,${'x'.repeat(80)}`]);
    expect(lines.slice(-2)).toEqual([`last,${'x'.repeat(80)}`, '']);
    expect(whole.storedFiles).toBe(1);

    // The escaping disarmed and a formula in the last piece: the pieces before it were taken, then dropped.
    const disarmed = await run(`RegExp.prototype.test = () => false;\n${rows("'=1+2'")}`);
    expect(disarmed.ended.state).toBe('failed');
    expect(disarmed.logs).toContain('Data sink out: the CSV the component wrote cannot be stored.');
    expect(disarmed.files).toEqual([]);
    expect(disarmed.storedFiles).toBe(0);

    // A last row whose fields come in another order makes no column table: the pieces sent before
    // it are dropped, and the server writes the file from the rows the answer holds.
    const reordered = await run(`${rows("'last'")} ctx.output.out[59999] = { text: 'y', code: 'last' };`);
    expect(reordered.ended.state).toBe('done');
    expect(reordered.files).toMatchObject([{ row_count: 60000, content_type: 'text/csv' }]);
    expect(reordered.storedFiles).toBe(1);
    const written = (await t.services.files.get(reordered.files[0]?.file_key ?? '')).toString();
    expect(written.endsWith(`C59998,${'x'.repeat(80)}\nlast,y\n`)).toBe(true);
  });

  it('writes every data-store target of a run or none of them', async () => {
    const component = await kit.component(
      'ctx.output.good = ctx.input.prices; ctx.output.bad = ctx.input.prices.map((r) => ({ price: r.price }));',
      ['prices'],
      ['good', 'bad'],
    );
    const pipelineId = await kit.pipeline({
      name: 'two targets',
      component,
      sources: [csvSource('prices')],
      sinks: [
        sink('good', 'XLSX', { table: 'atomic_good', keyFields: ['code'] }),
        sink('bad', 'CSV', { table: 'atomic_bad', keyFields: ['code'] }),
      ],
    });
    await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
    const { importId } = (await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } }))
      .body.data;
    expect((await kit.waitFor(importId, ['done', 'failed'])).state).toBe('failed');
    expect(await kit.messages(importId)).toContain('Data store atomic_bad: row 1 has no value for key field code.');
    expect(await t.services.datastore.tables()).not.toContain('atomic_good');
    // The files were written before the data store: they stay, as records of what the run produced.
    const files = await t.ctx.db.kysely
      .selectFrom('uploads')
      .select('original_filename')
      .where('import_id', '=', importId)
      .execute();
    expect(files.map((f) => f.original_filename?.split('.').pop()).sort()).toEqual(['csv', 'xlsx']);
  });

  it('starts a failed run again when the job restarts on error, up to three attempts', async () => {
    const component = await kit.component(`throw new Error('remote system down');`, ['prices'], ['out']);
    const pipelineId = await kit.pipeline({ name: 'flaky', component, sources: [csvSource('prices')], sinks: [sink('out')] });
    await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
    const { importId } = (
      await t.call('POST', '/imports', {
        token: manager.token,
        body: { pipelineId, kind: 'immediate', restartOnError: true },
      })
    ).body.data;
    const deadline = Date.now() + 40_000;
    let row = await kit.waitFor(importId, ['failed', 'done', 'pending', 'busy', 'progress']);
    while (row.state !== 'failed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      row = await kit.waitFor(importId, ['failed', 'done', 'pending', 'busy', 'progress']);
    }
    expect(row).toMatchObject({ state: 'failed', attempts: 3 });
    const messages = await kit.messages(importId);
    expect(messages).toContain('The import starts again (attempt 2 of 3).');
    expect(messages).toContain('The import starts again (attempt 3 of 3).');
    expect(messages).toContain('Import of pipeline flaky (v1) started (attempt 3 of 3).');
  }, 60_000);
});

async function userName(id: string): Promise<string> {
  const row = await t.ctx.db.kysely.selectFrom('users').select('user_name').where('id', '=', id).executeTakeFirstOrThrow();
  return row.user_name;
}
