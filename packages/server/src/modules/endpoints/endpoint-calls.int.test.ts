import * as XLSX from '@e965/xlsx';
import { ENDPOINT_MESSAGES } from '@gdb/shared/endpoints/endpoint.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointKit } from '../../../test/endpoints-kit.ts';
import { buildImport } from '../../../test/factories.ts';
import { csvSource } from '../../../test/imports-kit.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { CALL_RIGHTS_TTL_MS } from './endpoint-calls.ts';

// Calls of a published endpoint: its key, its size limit, its data model, its calls a minute; a
// valid body becomes an upload of the endpoint source and an immediate import of the pipeline.

let t: TestApp;
let kit: Awaited<ReturnType<typeof endpointKit>>['kit'];
let manager: string;
let published: Awaited<ReturnType<typeof endpointKit>>['published'];
beforeAll(async () => {
  ({ t, kit, manager, published } = await endpointKit());
});
afterAll(async () => {
  await t.close();
});

const DOUBLE = 'ctx.output.out = ctx.input.prices.map((r) => ({ code: r.code, price: r.price * 2 }));';

const call = (path: string, body: string | Buffer, headers: Record<string, string> = {}, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/gdb-runtime/v1/${path}${query}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });

/** The status `send` answers once it is `status` (asked again every 100 ms), or the last one after `ms` and a little more. */
async function statusWithin(ms: number, status: number, send: () => Promise<{ statusCode: number }>): Promise<number> {
  const until = Date.now() + ms + 250;
  for (;;) {
    const { statusCode } = await send();
    if (statusCode === status || Date.now() > until) return statusCode;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('POST /gdb-runtime/v1/{path}', () => {
  it('stores a valid body as an upload of the endpoint source and runs the pipeline (202 with the import id)', async () => {
    const { id, key } = await published('calls/ok', DOUBLE);
    const res = await call('calls/ok', JSON.stringify([{ code: 'A', price: 2 }]), { 'x-api-key': key });
    expect(res.statusCode).toBe(202);
    const { importId, uploadId } = res.json().data;
    const upload = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirstOrThrow();
    // Checked before the answer, the upload is stored in its final state, its log written with it.
    expect(upload).toMatchObject({ pipeline_id: id, data_sub_kind: 'prices', from: 'source', status: 'valid', row_count: 1 });
    expect(upload.rows_key).toEqual(expect.any(String));
    const lines = await t.ctx.db.kysely
      .selectFrom('logs')
      .select(['level', 'message'])
      .where('upload_id', '=', uploadId)
      .orderBy('id')
      .execute();
    expect(lines[0]).toEqual({ level: 'info', message: expect.stringMatching(/^File prices\.json received \(\d+ bytes\)\.$/) });
    expect(lines.at(-1)?.level).toBe('success');
    const ended = await kit.waitFor(importId, ['done', 'failed']);
    expect(ended.state).toBe('done');
    const listed = await t.call('GET', `/pipelines/deployed-endpoint/${id}`, { token: manager });
    expect(listed.body.data).toMatchObject({ componentName: expect.stringMatching(/^component \d+$/), componentVersion: 1 });
  });

  it('acts for the last publisher, refuses a replaced key, and runs nothing once the pipeline lost its endpoint source', async () => {
    const { id, key } = await published('calls/owner', DOUBLE);
    const other = await t.signedIn(['manager']);
    const again = await t.call('POST', '/pipelines/publish-endpoint', { token: other.token, body: { id } });
    const body = JSON.stringify([{ code: 'A', price: 1 }]);
    expect((await call('calls/owner', body, { 'x-api-key': key })).statusCode).toBe(401);
    const res = await call('calls/owner', body, { 'x-api-key': again.body.data.apiKey });
    expect(res.statusCode).toBe(202);
    const { uploadId, importId } = res.json().data;
    const upload = await t.ctx.db.kysely
      .selectFrom('uploads')
      .select('created_by')
      .where('id', '=', uploadId)
      .executeTakeFirstOrThrow();
    const run = await t.ctx.db.kysely
      .selectFrom('imports')
      .select('user_id')
      .where('id', '=', importId)
      .executeTakeFirstOrThrow();
    expect([upload.created_by, run.user_id]).toEqual([other.user.id, other.user.id]);
    await kit.waitFor(importId, ['done', 'failed']);
    await t.ctx.db.kysely
      .updateTable('pipelines')
      .set({ data_sources: JSON.stringify([csvSource('prices')]) })
      .where('id', '=', id)
      .execute();
    // What a call read of its pipeline is trusted for CALL_RIGHTS_TTL_MS, no longer.
    expect(
      await statusWithin(CALL_RIGHTS_TTL_MS, 404, () => call('calls/owner', body, { 'x-api-key': again.body.data.apiKey })),
    ).toBe(404);
  });

  it('joins the import that waits to run: 202 with its id, queued, the rows switched on for it', async () => {
    const { id, key } = await published('calls/busy', DOUBLE);
    const waiting = await buildImport(t, id);
    const res = await call('calls/busy', JSON.stringify([{ code: 'A', price: 1 }]), { 'x-api-key': key });
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toMatchObject({ importId: waiting, queued: true });
    expect(res.headers['retry-after']).toBeUndefined();
    const uploads = await t.ctx.db.kysely.selectFrom('uploads').select('enabled').where('pipeline_id', '=', id).execute();
    expect(uploads).toEqual([{ enabled: true }]);
  });

  it('answers the outputs when the run ends within ?wait=', async () => {
    const { key } = await published('calls/wait', DOUBLE);
    const res = await call('calls/wait', JSON.stringify([{ code: 'B', price: 5 }]), { 'x-api-key': key }, '?wait=20');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'done', outputs: [expect.objectContaining({ dataSubKind: 'out' })] });
    expect((await call('calls/wait', '[]', { 'x-api-key': key }, '?wait=61')).statusCode).toBe(422);
  });

  it('answers 401 for a missing, wrong or other endpoint key, and for an unknown path alike', async () => {
    const { key } = await published('calls/guarded', DOUBLE);
    const other = await published('calls/other', DOUBLE);
    const body = JSON.stringify([{ code: 'A', price: 1 }]);
    const keys: Record<string, string>[] = [{}, { 'x-api-key': 'wrong' }, { 'x-api-key': other.key }, { 'x-api-key': `${key}x` }];
    for (const headers of keys) {
      const res = await call('calls/guarded', body, headers);
      expect(res.statusCode).toBe(401);
    }
    expect((await call('calls/nowhere', body, { 'x-api-key': key })).statusCode).toBe(401);
    expect((await call('..%2Fcalls/guarded', body, { 'x-api-key': key })).statusCode).toBe(401);
    const uploads = await t.ctx.db.kysely.selectFrom('uploads').select('id').where('pipeline_id', '=', other.id).execute();
    expect(uploads).toEqual([]);
  });

  it('answers 422 with the row problems for a body the data model refuses, storing nothing', async () => {
    const { id, key } = await published('calls/strict', DOUBLE);
    const res = await call(
      'calls/strict',
      JSON.stringify([
        { code: 'A', price: 1 },
        { code: '', price: 'x' },
      ]),
      { 'x-api-key': key },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().data.issues.length).toBeGreaterThan(0);
    expect(res.json().data.issues[0].path).toMatch(/^rows\./);
    expect((await call('calls/strict', 'not json', { 'x-api-key': key })).statusCode).toBe(422);
    expect((await call('calls/strict', '', { 'x-api-key': key })).statusCode).toBe(422);
    const stored = await t.ctx.db.kysely.selectFrom('uploads').select('id').where('pipeline_id', '=', id).execute();
    expect(stored).toEqual([]);
  });

  const FILES = {
    csv: { type: 'text/csv', valid: 'code,price\nA,3\n', refused: 'code,price\n,abc\n' },
    xml: {
      type: 'application/xml',
      valid: '<?xml version="1.0"?><items><item><code>A</code><price>3</price></item></items>',
      refused: '<?xml version="1.0"?><items><item><code></code><price>abc</price></item></items>',
    },
  } as const;
  for (const [contentType, file] of Object.entries(FILES)) {
    it(`reads a ${contentType} body for a ${contentType} endpoint source, checked against the same data model`, async () => {
      const path = `calls/${contentType}`;
      const { key } = await published(path, DOUBLE, { contentType: contentType as 'csv' | 'xml' });
      const headers = { 'x-api-key': key, 'content-type': file.type };
      const accepted = await call(path, file.valid, headers);
      expect(accepted.statusCode).toBe(202);
      expect((await kit.waitFor(accepted.json().data.importId, ['done', 'failed'])).state).toBe('done');
      const refused = await call(path, file.refused, headers);
      expect(refused.statusCode).toBe(422);
      expect(refused.json().data.issues[0].path).toMatch(/^rows\./);
    });
  }

  it('reads an XLSX body for an excel endpoint source', async () => {
    const path = 'calls/excel';
    const { key: apiKey } = await published(path, DOUBLE, { contentType: 'excel' });
    const book = (rows: Record<string, unknown>[]) => {
      const b = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(b, XLSX.utils.json_to_sheet(rows), 'Prices');
      return Buffer.from(XLSX.write(b, { type: 'array', bookType: 'xlsx' }));
    };
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
    const accepted = await call(path, book([{ code: 'A', price: 3 }]), headers);
    expect(accepted.statusCode).toBe(202);
    expect((await kit.waitFor(accepted.json().data.importId, ['done', 'failed'])).state).toBe('done');
    expect((await call(path, book([{ code: 'A', price: 'x' }]), headers)).statusCode).toBe(422);
  });

  it('answers 413 for a body over 20 MiB', async () => {
    const { key } = await published('calls/big', DOUBLE);
    const res = await call('calls/big', Buffer.alloc(20 * 1024 * 1024 + 1, 32), { 'x-api-key': key });
    expect(res.statusCode).toBe(413);
  });

  it('stops acting for a publisher who was de-activated (403) until it is published again', async () => {
    const publisher = await t.signedIn(['manager']);
    const { id, key } = await published('calls/publisher', DOUBLE, { token: publisher.token });
    const body = JSON.stringify([{ code: 'A', price: 1 }]);
    const before = await call('calls/publisher', body, { 'x-api-key': key });
    expect(before.statusCode).toBe(202);
    await kit.waitFor(before.json().data.importId, ['done', 'failed']);
    await t.ctx.db.kysely.updateTable('users').set({ is_active: false }).where('id', '=', publisher.user.id).execute();
    // The publisher's rights a call read are trusted for CALL_RIGHTS_TTL_MS, no longer.
    const refusedCall = () => call('calls/publisher', body, { 'x-api-key': key });
    expect(await statusWithin(CALL_RIGHTS_TTL_MS, 403, refusedCall)).toBe(403);
    const refused = await refusedCall();
    expect(refused.json().message).toBe(ENDPOINT_MESSAGES.publisherGone);
    const again = await t.call('POST', '/pipelines/publish-endpoint', { token: manager, body: { id, path: 'calls/publisher' } });
    const accepted = await call('calls/publisher', body, { 'x-api-key': again.body.data.apiKey });
    expect(accepted.statusCode).toBe(202);
    await kit.waitFor(accepted.json().data.importId, ['done', 'failed']);
  });

  it('refuses a body of a caller without the key before reading it: 401, not 413', async () => {
    await published('calls/big-stranger', DOUBLE);
    const res = await call('calls/big-stranger', Buffer.alloc(20 * 1024 * 1024 + 1, 32), { 'x-api-key': 'wrong' });
    expect(res.statusCode).toBe(401);
  });

  it('answers 429 beyond the calls a minute of its key, with Retry-After', async () => {
    const { key } = await published('calls/limited', DOUBLE, { callsPerMinute: 2 });
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await call('calls/limited', '', { 'x-api-key': key }));
    expect(answers.map((a) => a.statusCode)).toEqual([422, 422, 429]);
    expect(Number(answers[2]?.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('the OpenAPI document of an endpoint', () => {
  it('describes its path, key, body rows from the data model and answers, for the holder of its key', async () => {
    const { id, key } = await published('docs/prices', DOUBLE);
    const read = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/gdb-runtime/v1/docs/prices/openapi.json', headers });
    expect((await read({})).statusCode).toBe(401);
    expect((await read({ 'x-api-key': 'wrong' })).statusCode).toBe(401);
    const doc = (await read({ 'x-api-key': key })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: `${t.ctx.config.publicUrl}/gdb-runtime/v1` }]);
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    const post = doc.paths['/docs/prices'].post;
    const rows = post.requestBody.content['application/json'].schema;
    expect(rows).toMatchObject({ type: 'array', items: { type: 'object', required: ['code', 'price'] } });
    expect(rows.items.properties.price).toEqual({ type: 'number' });
    expect(Object.keys(post.responses)).toEqual(['200', '202', '401', '413', '422', '429']);
    // The wizard reads the same document with a session.
    const viaApi = await t.call('GET', `/pipelines/deployed-endpoint/${id}/openapi`, { token: manager });
    expect(viaApi.body.data).toEqual(doc);
    const { token } = await t.signedIn(['user']);
    expect((await t.call('GET', `/pipelines/deployed-endpoint/${id}/openapi`, { token })).status).toBe(403);
  });
});
