import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../test/elsewhere.ts';
import { csvSource, importKit, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import { createParsePool } from './parsing/parse-pool.ts';
import { uploadDataModel } from './upload-deps.ts';
import { uploadsService } from './uploads.service.ts';

// Calls (and listener batches) whose check has ended are stored as they come: those checked while
// another one is being written share the next transaction. The endpoint source has no data model,
// so a check reads nothing from the database (the embedded one's session is the held write's).

let t: TestApp;
let pipeline: PipelineView;
let auth: AuthContext;
const pool = createParsePool({ concurrency: 1 });

beforeAll(async () => {
  t = await createTestApp();
  const kit = await importKit(t);
  const component = await kit.component('ctx.output.out = ctx.input.prices;', ['prices'], ['out']);
  const source = csvSource('prices', { connectorType: 'endpoint', contentType: 'json' });
  const id = await kit.pipeline({ name: 'grouped calls', component, sources: [source], sinks: [sink('out', 'JSON')] });
  const stored = await t.services.pipelines.stored(id);
  if (!stored) throw new Error('no pipeline');
  pipeline = stored;
  const { user } = await t.signedIn(['manager']);
  auth = { userId: user.id, sessionId: 'test', userName: user.user_name, roles: ['manager'] };
});
afterAll(async () => {
  await t.close();
});

/**
 * An uploads service whose file store records the files of each `putAll` (as the text of their
 * bytes), holds the first one until `release`, and refuses a group holding a file with 'refused';
 * `checked(n)` waits until n calls have been checked.
 */
function recordingStore() {
  const groups: string[][] = [];
  let parsed = 0;
  const parser: typeof pool = {
    ...pool,
    async parse(request) {
      const outcome = await pool.parse(request);
      parsed += 1;
      return outcome;
    },
  };
  const checked = (n: number) => until(() => parsed >= n);
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const files: FileStore = {
    ...t.services.files,
    async putAll(all, within) {
      const texts = all.map((bytes) => Buffer.from(bytes).toString());
      groups.push(texts);
      if (groups.length === 1) await held;
      if (texts.some((text) => text.includes('refused'))) throw new Error('store refused');
      return t.services.files.putAll(all, within);
    },
  };
  const service = uploadsService(t.ctx, {
    pipelines: t.services.pipelines,
    files,
    parser,
    log: (lines, within) => t.services.logs.append(lines, within),
    loadDataModel: async (id) => uploadDataModel((await t.services.schemas.byIds([id]))[0]),
  });
  return { service, groups, release, checked };
}

const body = (code: string) => ({
  filename: 'prices.json',
  mimetype: 'application/json',
  bytes: Buffer.from(JSON.stringify([{ code, price: 1 }])),
});

/** The upload's row and its log lines, as stored. */
async function storedUpload(id: string) {
  const k = t.ctx.db.kysely;
  const row = await k.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lines = await k.selectFrom('logs').select(['level', 'message']).where('upload_id', '=', id).orderBy('id').execute();
  return { row, lines };
}

describe('checked calls stored as they come', () => {
  it('stores the calls checked while one is being written together, each its own upload, rows and log lines', async () => {
    const { service, groups, release, checked } = recordingStore();
    const first = service.receiveCall(auth, pipeline, body('A'));
    await until(() => groups.length > 0);
    const others = ['B', 'C', 'D', 'E'].map((code) => service.receiveCall(auth, pipeline, body(code)));
    // The four are checked (in the parse pool) while the first is held: they wait for its write.
    await checked(5);
    await new Promise((r) => setTimeout(r, 50));
    expect(groups).toHaveLength(1);
    release();
    const ids = await Promise.all([first, ...others]);
    // Two writes: the first call alone, then the four together (each file and its checked rows).
    expect(groups.map((g) => g.length)).toEqual([2, 8]);
    expect(
      groups[1]
        ?.slice(0, 4)
        .map((text) => JSON.parse(text)[0].code)
        .sort(),
    ).toEqual(['B', 'C', 'D', 'E']);
    for (const [i, id] of ids.entries()) {
      const { row, lines } = await storedUpload(id);
      expect(row).toMatchObject({ pipeline_id: pipeline._id, status: 'valid', row_count: 1, created_by: auth.userId });
      expect(Buffer.from(await t.services.files.get(row.file_key ?? '')).toString()).toContain(`"${'ABCDE'[i]}"`);
      expect(lines[0]?.message).toMatch(/^File prices\.json received/);
      expect(lines.at(-1)?.level).toBe('success');
    }
  });

  it('writes each call of a failed shared write alone: only the one at fault fails, the others are stored', async () => {
    const { service, groups, release, checked } = recordingStore();
    const first = service.receiveCall(auth, pipeline, body('F'));
    await until(() => groups.length > 0);
    const others = ['G', 'refused', 'H'].map((code) => service.receiveCall(auth, pipeline, body(code)).catch((e: Error) => e));
    await checked(4);
    await new Promise((r) => setTimeout(r, 50));
    release();
    const [id, g, refused, h] = await Promise.all([first, ...others]);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe('store refused');
    for (const stored of [id, g, h]) expect((await storedUpload(stored as string)).row.status).toBe('valid');
    // Nothing of the refused call is left: no upload row names its file.
    const rows = await t.ctx.db.kysely.selectFrom('uploads').select('file_key').where('pipeline_id', '=', pipeline._id).execute();
    const texts = await Promise.all(rows.map(async (r) => Buffer.from(await t.services.files.get(r.file_key ?? '')).toString()));
    expect(texts.some((text) => text.includes('refused'))).toBe(false);
    expect(groups.map((group) => group.length)).toEqual([2, 6, 2, 2, 2]);
  });
});
