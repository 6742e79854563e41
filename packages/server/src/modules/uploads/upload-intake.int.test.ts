import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../test/elsewhere.ts';
import { csvSource, importKit } from '../../../test/imports-kit.ts';
import { listenLocal } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bodyEnd, fieldPart, fileHead, openUpload, partEnd } from '../../../test/upload-client.ts';

// An upload's files go to the file store as they arrive, never whole in memory; a request that
// fails or whose client goes away leaves nothing stored. Both stores, over a real connection.

const MiB = 1024 * 1024;

/** CSV rows of about `bytes` bytes, every one valid. */
function rows(bytes: number): Buffer {
  return Buffer.from('R1,1\n'.repeat(Math.ceil(bytes / 5)));
}

describe.each(['local', 'database'] as const)('uploads into the %s file store', (fileStore) => {
  let t: TestApp;
  let url: string;
  let token: string;
  let pipelineId: string;

  beforeAll(async () => {
    t = await createTestApp({ fileStore });
    url = await listenLocal(t.app);
    token = (await t.signedIn(['super-admin'])).token;
    const kit = await importKit(t);
    pipelineId = await kit.pipeline({ name: `streamed ${fileStore}`, sources: [csvSource('prices'), csvSource('stock')] });
  });
  afterAll(async () => {
    await t.services.uploads.settled();
    await t.close();
  });

  /** Bytes in the store: the local folder's files (temporary ones included) and the database's parts. */
  async function storedBytes(): Promise<number> {
    const root = path.join(t.dataDir, 'files');
    const files = fs.existsSync(root) ? fs.readdirSync(root, { recursive: true, withFileTypes: true }) : [];
    const local = files
      .filter((e) => e.isFile())
      .reduce((n, e) => n + (fs.statSync(path.join(e.parentPath, e.name), { throwIfNoEntry: false })?.size ?? 0), 0);
    const { rows: parts } = await sql<{ n: number }>`select coalesce(sum(length(bytes)), 0)::int as n from file_blobs`.execute(
      t.ctx.db.kysely,
    );
    return local + Number(parts[0]?.n);
  }

  /** The start of an upload: the pipeline's id, a small prices file, then the head of a stock file. */
  const smallThen = (small: string, next: string) =>
    Buffer.concat([
      fieldPart('pipelineId', pipelineId),
      fileHead('prices', small),
      Buffer.from('code,price\nA1,1\n'),
      partEnd,
      fileHead('stock', next),
    ]);

  const uploadsNamed = (name: string) =>
    t.ctx.db.kysely.selectFrom('uploads').select('id').where('original_filename', '=', name).execute();

  it('stores a file while it is still arriving, and its check reads it as it was sent', async () => {
    const before = await storedBytes();
    const upload = openUpload(url, token);
    const sent = [Buffer.from('code,price\n'), rows(3 * MiB), rows(MiB)];
    await upload.send(Buffer.concat([fieldPart('pipelineId', pipelineId), fileHead('prices', 'arriving.csv')]));
    await upload.send(Buffer.concat(sent.slice(0, 2)));
    // More than two of the part's MiB are in the store before the client sends the rest.
    await until(async () => (await storedBytes()) - before >= 2 * MiB);
    await upload.send(Buffer.concat([sent[2] ?? Buffer.alloc(0), partEnd, bodyEnd]));
    const answer = await upload.finish();
    expect(answer.status).toBe(200);
    await t.services.uploads.settled();
    const [row] = await t.ctx.db.kysely
      .selectFrom('uploads')
      .selectAll()
      .where('original_filename', '=', 'arriving.csv')
      .execute();
    expect(answer.body.data).toEqual([row?.id]);
    const file = Buffer.concat(sent);
    expect(row).toMatchObject({ status: 'valid', size: file.length, row_count: (file.length - 11) / 5 });
    expect((await t.services.files.get(row?.file_key ?? '')).equals(file)).toBe(true);
  });

  it('deletes what a client that goes away mid-file had stored, the files before it included', async () => {
    const before = await storedBytes();
    const upload = openUpload(url, token);
    await upload.send(Buffer.concat([smallThen('before-abort.csv', 'aborted.csv'), rows(2 * MiB)]));
    await until(async () => (await storedBytes()) - before >= MiB);
    upload.abort();
    await until(async () => (await storedBytes()) === before);
    await t.services.uploads.settled();
    expect(await uploadsNamed('before-abort.csv')).toEqual([]);
    expect(await uploadsNamed('aborted.csv')).toEqual([]);
  });

  it('refuses a file over 20 MiB with 413 as it arrives, and keeps nothing of the request', async () => {
    const before = await storedBytes();
    const upload = openUpload(url, token);
    await upload.send(smallThen('small.csv', 'too-big.csv'));
    for (let sent = 0; sent <= 20 * MiB; sent += MiB) await upload.send(rows(MiB));
    await upload.send(Buffer.concat([partEnd, bodyEnd]));
    const answer = await upload.finish();
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe('Files must be less than 20 MiB');
    await until(async () => (await storedBytes()) === before);
    expect(await uploadsNamed('small.csv')).toEqual([]);
    expect(await uploadsNamed('too-big.csv')).toEqual([]);
  });
});
