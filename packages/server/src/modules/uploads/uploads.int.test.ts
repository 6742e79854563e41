import type { DataSource } from '@gdb/shared/pipelines/pipeline.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignPipeline, buildDataModel } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import { newId } from '../../platform/ids.ts';
import type { ParsePool } from './parsing/parse-pool.ts';
import { createParsePool } from './parsing/parse-pool.ts';
import { checkFile } from './upload-checks.ts';
import { uploadDataModel } from './upload-deps.ts';
import { uploadsService } from './uploads.service.ts';

let t: TestApp;
let pipelineId: string;
let countryId: string;
let modelId: string;
let user: { token: string; id: string };

const boundary = '----gdb-test-boundary';
/** A multipart body with the pipelineId field and the given file parts. */
function multipart(
  fields: Record<string, string>,
  files: { field: string; name: string; type: string; content: string | Buffer }[],
) {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
    );
    parts.push(Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(token: string, pid: string, files: Parameters<typeof multipart>[1]) {
  const { body, headers } = multipart({ pipelineId: pid }, files);
  return t.call('POST', '/uploads', { token, body, headers });
}

async function statusOf(token: string, id: string) {
  await t.services.uploads.settled();
  return (await t.call('GET', `/uploads/status?ids=${id}`, { token })).body.data[0];
}

beforeAll(async () => {
  t = await createTestApp();
  const kinds = await t.services.reference.datakinds();
  modelId = await buildDataModel(t, 'price row', {
    type: 'object',
    required: ['code', 'price'],
    properties: { code: { type: 'string' }, price: { type: 'number' } },
  });
  const base = {
    dataSinks: [],
    datakind: kinds.find((k) => k.isDealer)?._id ?? null,
  };
  pipelineId = await t.services.pipelines.create({
    ...base,
    name: 'prices master',
    isMaster: true,
    dataSources: [
      { dataSubKind: 'prices', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: modelId },
      { dataSubKind: 'feed', connectorType: 'endpoint', dataFromMaster: false, contentType: 'json', dataModel: null },
    ],
  });
  countryId = await t.services.pipelines.create({
    ...base,
    name: 'prices FR',
    isMaster: false,
    masterPipeline: pipelineId,
    dataSources: [
      { dataSubKind: 'prices', connectorType: 'manual', dataFromMaster: true, contentType: 'csv', dataModel: modelId },
    ],
  });
  const u = await t.signedIn(['user']);
  user = { token: u.token, id: u.user.id };
  await assignPipeline(t, u.user.id, pipelineId);
});
afterAll(async () => {
  await t.services.uploads.settled();
  await t.close();
});

describe('uploads', () => {
  it('stores a file before answering, then checks it: pending → valid, with logs', async () => {
    const res = await upload(user.token, pipelineId, [
      { field: 'prices', name: 'prices.csv', type: 'text/csv', content: 'code;price\nAB;1.5\nCD;2\n' },
    ]);
    expect(res.status).toBe(200);
    const [id] = res.body.data;
    const row = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.file_key).toBeTruthy();
    const view = await statusOf(user.token, id);
    expect(view).toMatchObject({
      _id: id,
      status: 'valid',
      rowCount: 2,
      originalFilename: 'prices.csv',
      from: 'source',
      enabled: true,
    });
    const logs = await t.call('GET', `/logs/uploads?ids=${id}`, { token: user.token });
    const messages = logs.body.data.map((l: { message: string }) => l.message);
    expect(messages).toContain('File prices.csv received (23 bytes).');
    expect(messages).toContain('2 rows read, all valid.');
  });

  it('marks a file invalid with one log line per problem and its row number', async () => {
    const res = await upload(user.token, pipelineId, [
      { field: 'prices', name: 'bad.csv', type: 'text/csv', content: 'code,price\nAB,x\n,3\n' },
    ]);
    const [id] = res.body.data;
    expect((await statusOf(user.token, id)).status).toBe('invalid');
    const logs = await t.call('GET', `/logs/uploads?ids=${id}`, { token: user.token });
    const errors = logs.body.data
      .filter((l: { level: string }) => l.level === 'error')
      .map((l: { message: string }) => l.message);
    // Rows as the file numbers its lines; an empty required code is no value, reported as required.
    expect(errors).toEqual([
      'Row 2, price: "x" is not a number',
      'Row 3, code: no value, and one is required',
      '2 rows read, 2 invalid (2 problems).',
    ]);
  });

  it('refuses files over 20 MiB with 413 and stores nothing', async () => {
    const before = await t.ctx.db.kysely
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const big = Buffer.alloc(20 * 1024 * 1024 + 10, 0x61);
    const res = await upload(user.token, pipelineId, [{ field: 'prices', name: 'big.csv', type: 'text/csv', content: big }]);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Files must be less than 20 MiB');
    const after = await t.ctx.db.kysely
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses unknown or non-manual data sources and pipelines the caller may not use', async () => {
    const file = { name: 'a.csv', type: 'text/csv', content: 'a\n1\n' };
    expect((await upload(user.token, pipelineId, [{ ...file, field: 'nope' }])).body.message).toBe(
      'No data source nope in pipeline',
    );
    expect((await upload(user.token, pipelineId, [{ ...file, field: 'feed' }])).status).toBe(422);
    const other = await t.signedIn(['user']);
    expect((await upload(other.token, pipelineId, [{ ...file, field: 'prices' }])).status).toBe(403);
    const { body, headers } = multipart({ pipelineId: 'x' }, [{ ...file, field: 'prices' }]);
    expect((await t.call('POST', '/uploads', { token: user.token, body, headers })).status).toBe(422);
  });

  it('lists the last uploads per data source, newest first, and a country reads its master for dataFromMaster', async () => {
    const manager = await t.signedIn(['manager']);
    const a = (
      await upload(manager.token, pipelineId, [
        { field: 'prices', name: 'one.csv', type: 'text/csv', content: 'code,price\nA1,1\n' },
      ])
    ).body.data[0];
    const b = (
      await upload(manager.token, pipelineId, [
        { field: 'prices', name: 'two.csv', type: 'text/csv', content: 'code,price\nA2,1\n' },
      ])
    ).body.data[0];
    await t.services.uploads.settled();
    const last = await t.call('GET', `/uploads/last?pipelineId=${pipelineId}&dataSubKind=prices`, { token: manager.token });
    expect(last.body.data.slice(0, 2).map((u: { _id: string }) => u._id)).toEqual([b, a]);
    const all = await t.call('GET', `/uploads/last-all?pipelineId=${countryId}`, { token: manager.token });
    expect(all.body.data[0].dataSubKind).toBe('prices');
    expect(all.body.data[0].data[0]._id).toBe(b);
    const country = await upload(manager.token, countryId, [
      { field: 'prices', name: 'x.csv', type: 'text/csv', content: 'a\n1\n' },
    ]);
    expect(country.body.message).toBe('Data source prices takes its data from the master pipeline.');
  });

  it('disables an upload and exports one file as itself and several as export.zip', async () => {
    const manager = await t.signedIn(['manager']);
    const ids = (
      await upload(manager.token, pipelineId, [
        { field: 'prices', name: 'exp.csv', type: 'text/csv', content: 'code,price\nE1,1\n' },
      ])
    ).body.data;
    const other = (
      await upload(manager.token, pipelineId, [
        { field: 'prices', name: 'exp.csv', type: 'text/csv', content: 'code,price\nE2,2\n' },
      ])
    ).body.data[0];
    await t.services.uploads.settled();
    const off = await t.call('POST', '/uploads/disable', { token: manager.token, body: { id: ids[0] } });
    expect(off.body.data.enabled).toBe(false);

    const one = await t.app.inject({
      method: 'POST',
      url: '/gdb-importer/v1/uploads/export',
      headers: { 'x-token': manager.token },
      payload: { uploadIds: ids },
    });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-disposition']).toContain('filename="exp.csv"');
    expect(one.body).toBe('code,price\nE1,1\n');
    const zip = await t.app.inject({
      method: 'POST',
      url: '/gdb-importer/v1/uploads/export',
      headers: { 'x-token': manager.token },
      payload: { uploadIds: [ids[0], other] },
    });
    expect(zip.headers['content-disposition']).toContain('filename="export.zip"');
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('resumes checks a stop left unfinished', async () => {
    const manager = await t.signedIn(['manager']);
    const [id] = (
      await upload(manager.token, pipelineId, [
        { field: 'prices', name: 'r.csv', type: 'text/csv', content: 'code,price\nR1,1\n' },
      ])
    ).body.data;
    await t.services.uploads.settled();
    await t.ctx.db.kysely
      .updateTable('uploads')
      .set({ status: 'processing', claimed_at: new Date(Date.now() - 3600_000) })
      .where('id', '=', id)
      .execute();
    expect(await t.services.uploads.resume()).toBeGreaterThanOrEqual(1);
    expect((await statusOf(manager.token, id)).status).toBe('valid');
  });

  describe('checks another instance left unfinished', () => {
    /** A stored upload of the pipeline as an instance left it: its status and when it was claimed (the raw row is what these tests are about). */
    async function leftBehind(status: 'pending' | 'processing', claimedAgoMs: number, createdAgoMs: number) {
      const id = newId();
      const key = await t.services.files.put(Buffer.from('code,price\nL1,1\n'));
      await t.ctx.db.kysely
        .insertInto('uploads')
        .values({
          id,
          pipeline_id: pipelineId,
          data_sub_kind: 'prices',
          from: 'source',
          status,
          original_filename: 'left.csv',
          content_type: 'text/csv',
          size: 16,
          file_key: key,
          created_by: user.id,
          created_at: new Date(Date.now() - createdAgoMs),
          claimed_at: status === 'processing' ? new Date(Date.now() - claimedAgoMs) : null,
        })
        .execute();
      return id;
    }

    it('takes over a check whose claim nobody renews, and an upload never claimed, within a minute', async () => {
      const dead = await leftBehind('processing', 45_000, 60_000);
      const neverClaimed = await leftBehind('pending', 0, 40_000);
      // A check another live instance runs: its claim was renewed a moment ago.
      const alive = await leftBehind('processing', 2_000, 60_000);
      expect(await t.services.uploads.resume()).toBe(2);
      await t.services.uploads.settled();
      expect((await statusOf(user.token, dead)).status).toBe('valid');
      expect((await statusOf(user.token, neverClaimed)).status).toBe('valid');
      expect((await statusOf(user.token, alive)).status).toBe('processing');
    });

    it('looks for them on its own while it runs', async () => {
      const dead = await leftBehind('processing', 45_000, 60_000);
      t.services.uploads.watch(50);
      try {
        const deadline = Date.now() + 10_000;
        while ((await statusOf(user.token, dead)).status !== 'valid' && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        t.services.uploads.unwatch();
      }
      expect((await statusOf(user.token, dead)).status).toBe('valid');
    });
  });

  describe('checks a file while it is being stored', () => {
    /** An uploads service whose file store waits for `release` before it stores anything, and whose parser says when it starts. */
    function withSlowStore(fail = false) {
      let parseStarted!: () => void;
      const parsing = new Promise<void>((resolve) => {
        parseStarted = resolve;
      });
      const pool = createParsePool({ concurrency: 1 });
      const parser: ParsePool = {
        parse: (request) => {
          parseStarted();
          return pool.parse(request);
        },
        head: (request) => pool.head(request),
        counts: () => pool.counts(),
      };
      const files: FileStore = {
        ...t.services.files,
        put: async (bytes) => {
          await parsing;
          if (fail) throw new Error('disk full');
          return t.services.files.put(bytes);
        },
        putAll: async (all, within) => {
          await parsing;
          if (fail) throw new Error('disk full');
          return t.services.files.putAll(all, within);
        },
      };
      const logs: string[] = [];
      const service = uploadsService(t.ctx, {
        pipelines: t.services.pipelines,
        files,
        parser,
        log: async (lines) => {
          logs.push(...lines.map((l) => l.message));
          await t.services.logs.append(lines);
        },
        loadDataModel: async (id) => uploadDataModel((await t.services.schemas.byIds([id]))[0]),
      });
      return { service, logs };
    }

    const file = (content: string) => ({
      dataSubKind: 'prices',
      filename: 'early.csv',
      mimetype: 'text/csv',
      bytes: Buffer.from(content),
    });

    const managerAuth = async () => {
      const { user } = await t.signedIn(['manager']);
      return { userId: user.id, sessionId: newId(), userName: user.user_name, roles: ['manager'] };
    };

    it('starts the check before the file is stored and records it once the upload is', async () => {
      const { service, logs } = withSlowStore();
      // The store waits for the check to start: the upload would never be answered otherwise.
      const [id] = await service.receive(await managerAuth(), pipelineId, [file('code,price\nS1,1\nS2,2\n')]);
      await service.settled();
      const row = await t.ctx.db.kysely
        .selectFrom('uploads')
        .selectAll()
        .where('id', '=', id ?? '')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'valid', row_count: 2 });
      expect(row.rows_key).toBeTruthy();
      expect(logs).toEqual(['File early.csv received (21 bytes).', 'Read as UTF-8.', '2 rows read, all valid.']);
    });

    it('leaves nothing behind when the file cannot be stored, whatever its check found', async () => {
      const { service, logs } = withSlowStore(true);
      const before = await t.ctx.db.kysely.selectFrom('uploads').select('id').execute();
      await expect(service.receive(await managerAuth(), pipelineId, [file('code,price\nS1,x\n')])).rejects.toThrow('disk full');
      await service.settled();
      const after = await t.ctx.db.kysely.selectFrom('uploads').select('id').execute();
      expect(after.length).toBe(before.length);
      expect(logs).toEqual([]);
    });
  });
});

describe('upload checks against a data model', () => {
  it('compiles a data model version once for the files checked against it, and a saved draft anew', async () => {
    const { user: author } = await t.signedIn(['manager']);
    const auth = { userId: author.id, sessionId: newId(), userName: author.user_name, roles: ['manager'] };
    const name = `kept checks ${newId()}`;
    const doc = await t.services.schemas.save(auth, {
      name,
      jsonSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{2}$' } } },
    });
    const pool = createParsePool({ concurrency: 1, csvSlices: 1, spareDelayMs: 60_000 });
    const deps = {
      pipelines: t.services.pipelines,
      files: t.services.files,
      parser: pool,
      log: async () => undefined,
      loadDataModel: async (id: string) => uploadDataModel((await t.services.schemas.byIds([id]))[0]),
    };
    const source: DataSource = {
      dataSubKind: 'codes',
      connectorType: 'manual',
      dataFromMaster: false,
      contentType: 'csv',
      dataModel: doc._id,
    };
    const check = async (content: string) => {
      const file = { pipelineId: '00000000-0000-4000-8000-000000000000', source, dataSubKind: 'codes', filename: 'codes.csv' };
      return (await checkFile(t.ctx, deps, file, Buffer.from(content))).outcome;
    };
    // A row fails the check by column: the rows are checked one by one, both checks compiled.
    expect((await check('code\nAB\nabc\n'))?.problems).toEqual([
      { row: 3, message: 'Row 3, code: "abc" does not have the expected form (pattern ^[A-Z]{2}$)' },
    ]);
    expect(pool.counts().compiles).toBe(2);
    expect((await check('code\nCD\nxyz\n'))?.status).toBe('invalid');
    expect(pool.counts().compiles).toBe(2);

    await t.services.schemas.save(auth, {
      _id: doc._id,
      name,
      version: doc.version,
      sys_version: doc.sys_version,
      jsonSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^[a-z]{3}$' } } },
    });
    // The draft's new content is checked, compiled anew.
    expect((await check('code\nabc\n'))?.status).toBe('valid');
    expect(pool.counts().compiles).toBe(3);
  });
});

describe('uploads service', () => {
  it('hands other modules named operations, never its repository', () => {
    expect(t.services.uploads).not.toHaveProperty('repo');
  });
});
