import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvSource, importKit, multipart } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// Text PostgreSQL will not store (a NUL character) is the client's mistake: every route answers
// 422, never 500, and stores nothing. A file of any name can be exported.

let t: TestApp;
let boss: string;
let kit: Awaited<ReturnType<typeof importKit>>;
beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  kit = await importKit(t);
});
afterAll(async () => {
  await t.close();
});

/** Files in the store, local or in the database, whichever the app uses. */
async function storedFiles(): Promise<number> {
  const root = path.join(t.dataDir, 'files');
  const local = fs.existsSync(root)
    ? fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    : [];
  const { rows } = await sql<{ n: number }>`select count(distinct key)::int as n from file_blobs`.execute(t.ctx.db.kysely);
  return local.length + (rows[0]?.n ?? 0);
}

const REFUSED = {
  code: 42200,
  message: 'The request holds a character that cannot be stored (such as NUL).',
  data: { issues: [] },
};

describe('a NUL character', () => {
  it('in a user field answers 422', async () => {
    for (const field of ['firstName', 'lastName', 'service'] as const) {
      const body = {
        firstName: 'Nul',
        lastName: 'Person',
        email: `nul.${field}@example.test`,
        roles: ['user'],
        [field]: 'a\u0000b',
      };
      const res = await t.call('POST', '/users', { token: boss, body });
      expect(res.status, field).toBe(422);
      expect(res.body, field).toEqual(REFUSED);
    }
  });

  it('in a badge answers 422', async () => {
    for (const body of [
      { name: 'nul\u0000badge', type: 'group' },
      { name: 'nul metadata', type: 'project', isMetadata: true, metadata: 'x\u0000' },
    ]) {
      const res = await t.call('POST', '/tags', { token: boss, body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(REFUSED);
    }
  });

  it('in a component answers 422', async () => {
    for (const body of [
      { name: 'nul\u0000component', folder: null },
      { name: 'nul code', kind: 'instruction', jsCode: 'ctx.log("\u0000");' },
    ]) {
      const res = await t.call('POST', '/components', { token: boss, body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(REFUSED);
    }
  });

  it('in an uploaded file name answers 422, and the files the request stored are deleted', async () => {
    const pipelineId = await kit.pipeline({ name: 'nul names', sources: [csvSource('prices'), csvSource('stock')] });
    const before = await storedFiles();
    const { body, headers } = multipart(pipelineId, [
      { field: 'prices', name: 'good.csv', content: 'a,b\n1,2\n' },
      { field: 'stock', name: 'bad\u0000name.csv', content: 'a,b\n3,4\n' },
    ]);
    const res = await t.call('POST', '/uploads', { token: boss, body, headers });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(REFUSED);
    await t.services.uploads.settled();
    expect(await storedFiles()).toBe(before);
    expect(await t.ctx.db.kysely.selectFrom('uploads').select('id').where('pipeline_id', '=', pipelineId).execute()).toEqual([]);
  });
});

describe('an exported file', () => {
  it('keeps any name, in UTF-8 with an ASCII stand-in', async () => {
    const pipelineId = await kit.pipeline({ name: 'odd names', sources: [csvSource('prices')] });
    const id = await kit.upload(boss, pipelineId, 'prices', 'a,b\n1,2\n', 'Händler-€.csv');
    const res = await t.app.inject({
      method: 'POST',
      url: '/gdb-importer/v1/uploads/export',
      headers: { 'x-token': boss },
      payload: { uploadIds: [id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="H_ndler-_.csv"; filename*=UTF-8''H%C3%A4ndler-%E2%82%AC.csv`,
    );
    expect(res.body).toBe('a,b\n1,2\n');
  });
});
