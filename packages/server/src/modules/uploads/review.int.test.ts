import * as XLSX from '@e965/xlsx';
import { REVIEW_LIMITS } from '@gdb/shared/uploads/review.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignPipeline, buildDataModel } from '../../../test/factories.ts';
import { multipart } from '../../../test/imports-kit.ts';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let pipelineId: string;
let user: { token: string; id: string };
let boss: string;

const BAD_FILE = 'code;price\nA1;1\nB2;x\n;3\nD4;4\nE5;five\n';

async function upload(token: string, content: string, name = 'prices.csv'): Promise<string> {
  const { body, headers } = multipart(pipelineId, [{ field: 'prices', name, content }]);
  const res = await t.call('POST', '/uploads', { token, body, headers });
  expect(res.status, res.body.message).toBe(200);
  await t.services.uploads.settled();
  return res.body.data[0];
}

const review = (token: string, id: string, query = '') => t.call('GET', `/uploads/${id}/review${query}`, { token });
const correct = (token: string, id: string, body: unknown) => t.call('POST', `/uploads/${id}/corrections`, { token, body });

beforeAll(async () => {
  t = await createTestApp();
  const modelId = await buildDataModel(t, 'review prices', {
    type: 'object',
    required: ['code', 'price'],
    properties: { code: { type: 'string' }, price: { type: 'number' } },
  });
  // A plain user uploads to pipelines of the dealer datakind only.
  const kinds = await t.services.reference.datakinds();
  pipelineId = await t.services.pipelines.create({
    name: 'review prices',
    isMaster: true,
    datakind: kinds.find((k) => k.isDealer)?._id ?? null,
    dataSinks: [],
    dataSources: [
      { dataSubKind: 'prices', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: modelId },
    ],
  });
  const u = await t.signedIn(['user']);
  user = { token: u.token, id: u.user.id };
  await assignPipeline(t, u.user.id, pipelineId);
  boss = (await t.signedIn(['super-admin'])).token;
});
afterAll(async () => {
  await t.services.uploads.settled();
  await t.close();
});

describe('the review of an upload', () => {
  it('lists the rows with a problem first, each problem on its cell, filtered by column and by message', async () => {
    const id = await upload(user.token, BAD_FILE);
    const res = await review(user.token, id);
    expect(res.status, res.body.message).toBe(200);
    const page = res.body.data;
    expect(page).toMatchObject({ fields: ['code', 'price'], rowCount: 5, problemRows: 3, removedRows: 0, total: 3 });
    expect(page.rows.map((r: { line: number }) => r.line)).toEqual([3, 4, 6]);
    expect(page.rows[0]).toMatchObject({
      index: 1,
      values: ['B2', 'x'],
      problems: [{ field: 'price', message: '"x" is not a number' }],
    });
    expect(page.rows[1].problems).toEqual([{ field: 'code', message: 'no value, and one is required' }]);
    expect(page.fieldProblems).toEqual([
      { field: 'code', count: 1 },
      { field: 'price', count: 2 },
    ]);
    expect(page.messageKinds[0]).toEqual({ kind: 'price: … is not a number', count: 2 });
    const byField = await review(user.token, id, '?field=code');
    expect(byField.body.data.rows.map((r: { index: number }) => r.index)).toEqual([2]);
    const byKind = await review(user.token, id, `?message=${encodeURIComponent('price: … is not a number')}`);
    expect(byKind.body.data.total).toBe(2);
    const byText = await review(user.token, id, '?message=five');
    expect(byText.body.data.rows.map((r: { index: number }) => r.index)).toEqual([4]);
    const all = await review(user.token, id, '?all=true&limit=2&offset=1');
    expect(all.body.data).toMatchObject({ total: 5 });
    expect(all.body.data.rows.map((r: { index: number }) => r.index)).toEqual([1, 2]);
  });

  it('checks again only the rows changed, answers their problems and records who changed what', async () => {
    const id = await upload(user.token, BAD_FILE);
    await review(user.token, id);
    const res = await correct(user.token, id, { changes: [{ rowIndex: 1, field: 'price', value: '2.5' }] });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data).toMatchObject({ problemRows: 2, removedRows: 0 });
    expect(res.body.data.rows).toEqual([
      { index: 1, line: 3, values: ['B2', '2.5'], problems: [], removed: false, corrected: ['price'] },
    ]);
    const wrong = await correct(user.token, id, { changes: [{ rowIndex: 2, field: 'price', value: 'abc' }] });
    expect(wrong.body.data.rows[0].problems).toEqual([
      { field: 'code', message: 'no value, and one is required' },
      { field: 'price', message: '"abc" is not a number' },
    ]);
    const activity = await t.call('GET', `/activity?uploadId=${id}`, { token: boss });
    expect(activity.body.data.entries.map((e: { kind: string; details: object }) => [e.kind, e.details])).toEqual([
      ['cell-corrected', { row: 4, rowIndex: 2, field: 'price', from: '3', to: 'abc' }],
      ['cell-corrected', { row: 3, rowIndex: 1, field: 'price', from: 'x', to: '2.5' }],
    ]);
    expect(activity.body.data.entries[0]).toMatchObject({
      documentKind: 'pipeline',
      documentName: 'review prices',
      uploadId: id,
    });
    const logs = await t.call('GET', `/logs/uploads?ids=${id}`, { token: user.token });
    expect(logs.body.data.map((l: { message: string }) => l.message)).toContain(
      `Review by ${(await t.services.users.byId(user.id))?.user_name}: 1 cell corrected (see the Activity page).`,
    );
  });

  it('keeps the last of several changes of a cell in one call, and forgets a cell set back to its value', async () => {
    const id = await upload(user.token, BAD_FILE);
    const stored = () =>
      t.ctx.db.kysely
        .selectFrom('upload_corrections')
        .select(['row_index', 'field', 'value'])
        .where('upload_id', '=', id)
        .execute();
    const cell = (value: string) => ({ rowIndex: 1, field: 'price', value });
    const res = await correct(user.token, id, { changes: [cell('x'), cell('7'), cell('8')], removals: [3], restores: [3] });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data.rows.map((r: { values: unknown[]; removed: boolean }) => [r.values, r.removed])).toEqual([
      [['B2', '8'], false],
      [['D4', '4'], false],
    ]);
    expect(await stored()).toEqual([{ row_index: 1, field: 'price', value: '8' }]);
    await correct(user.token, id, { changes: [cell('9'), cell('x')] });
    expect(await stored()).toEqual([]);
  });

  it('submits the corrected file as a new upload checked as any, linked to the original kept with its record', async () => {
    const id = await upload(user.token, BAD_FILE, 'dealers.csv');
    await correct(user.token, id, {
      changes: [
        { rowIndex: 1, field: 'price', value: '2' },
        { rowIndex: 2, field: 'code', value: 'C3' },
      ],
      removals: [4],
    });
    const res = await t.call('POST', `/uploads/${id}/submit`, { token: user.token });
    expect(res.status, res.body.message).toBe(200);
    const made = res.body.data.uploadId;
    await t.services.uploads.settled();
    const views = (await t.call('GET', `/uploads/status?ids=${made},${id}`, { token: user.token })).body.data;
    const fixed = views.find((v: { _id: string }) => v._id === made);
    const original = views.find((v: { _id: string }) => v._id === id);
    expect(fixed).toMatchObject({
      _id: made,
      status: 'valid',
      rowCount: 4,
      originalFilename: 'dealers-corrected.csv',
      correctedFrom: id,
    });
    expect(original).toMatchObject({ _id: id, status: 'invalid', enabled: false });
    const kinds = (await t.call('GET', `/activity?uploadId=${id}`, { token: boss })).body.data.entries.map(
      (e: { kind: string }) => e.kind,
    );
    expect(kinds.sort()).toEqual(['cell-corrected', 'cell-corrected', 'corrected-file', 'row-removed']);
    const logs = await t.call('GET', `/logs/uploads?ids=${made}`, { token: user.token });
    expect(logs.body.data.map((l: { message: string }) => l.message)).toContain(
      'Corrected from dealers.csv (2 cells corrected, 1 row removed).',
    );
    // Deleting the upload takes its record with it.
    await t.ctx.db.kysely.deleteFrom('uploads').where('id', '=', made).execute();
    await t.ctx.db.kysely.deleteFrom('uploads').where('id', '=', id).execute();
    expect((await t.call('GET', `/activity?uploadId=${id}`, { token: boss })).body.data.total).toBe(0);
    const left = await t.ctx.db.kysely.selectFrom('upload_corrections').selectAll().where('upload_id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('gives the rows with a problem as CSV and XLSX with a problem column', async () => {
    const id = await upload(user.token, 'code;price\nA1;1\nB2;x\n=SUM(A1);3\n');
    const csv = await t.app.inject({
      method: 'GET',
      url: `${BASE}/uploads/${id}/problems?format=csv`,
      headers: { 'x-token': user.token },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('prices-problems.csv');
    expect(csv.body).toBe('Row,code,price,Problems\n3,B2,x,"price: ""x"" is not a number"\n');
    await correct(user.token, id, { changes: [{ rowIndex: 2, field: 'price', value: 'y' }] });
    const xlsx = await t.app.inject({
      method: 'GET',
      url: `${BASE}/uploads/${id}/problems?format=xlsx`,
      headers: { 'x-token': user.token },
    });
    expect(xlsx.statusCode).toBe(200);
    const book = XLSX.read(xlsx.rawPayload, { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0] ?? ''] ?? {}, { header: 1 });
    expect(rows).toEqual([
      ['Row', 'code', 'price', 'Problems'],
      ['3', 'B2', 'x', 'price: "x" is not a number'],
      ['4', '=SUM(A1)', 'y', 'price: "y" is not a number'],
    ]);
  });

  it("refuses another pipeline's user, an unknown column or row, and batches and values over the limits", async () => {
    const id = await upload(user.token, BAD_FILE);
    const stranger = await t.signedIn(['user']);
    expect((await review(stranger.token, id)).status).toBe(403);
    expect((await correct(stranger.token, id, { changes: [{ rowIndex: 1, field: 'price', value: '1' }] })).status).toBe(403);
    expect((await t.call('POST', `/uploads/${id}/submit`, { token: stranger.token })).status).toBe(403);
    expect((await t.call('GET', `/uploads/${id}/problems`, { token: stranger.token })).status).toBe(403);
    const none = await t.ctx.db.kysely.selectFrom('upload_corrections').selectAll().where('upload_id', '=', id).execute();
    expect(none).toEqual([]);
    const field = await correct(user.token, id, { changes: [{ rowIndex: 1, field: 'nope', value: '1' }] });
    expect([field.status, field.body.message]).toEqual([422, 'The file has no column nope.']);
    expect((await correct(user.token, id, { removals: [99] })).body.message).toBe('The file has no row 100.');
    const many = Array.from({ length: REVIEW_LIMITS.batchMax + 1 }, () => ({ rowIndex: 1, field: 'price', value: '1' }));
    expect((await correct(user.token, id, { changes: many })).status).toBe(422);
    const long = 'x'.repeat(REVIEW_LIMITS.valueMax + 1);
    expect((await correct(user.token, id, { changes: [{ rowIndex: 1, field: 'price', value: long }] })).status).toBe(422);
    expect((await review(user.token, 'not-an-id')).status).toBe(422);
  });
});
