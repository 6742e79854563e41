import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvSource, importKit } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const exists = (key: string) =>
  t.services.files.get(key).then(
    () => true,
    () => false,
  );

describe('the stored-file sweep', () => {
  it('deletes files no upload references once they are older than the grace, and keeps every referenced one', async () => {
    const kit = await importKit(t);
    const { token } = await t.signedIn(['super-admin']);
    const pipelineId = await kit.pipeline({ name: 'sweep', sources: [csvSource('prices')] });
    const uploadId = await kit.upload(token, pipelineId, 'prices', 'a,b\n1,2\n');
    const upload = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirstOrThrow();
    // A file a process stored and died before recording.
    const orphan = await t.services.files.put(Buffer.from('left behind'));

    // Within the grace nothing goes: a request or a run may still be about to record it.
    expect(await t.services.uploads.sweepFiles()).toBe(0);
    expect(await exists(orphan)).toBe(true);

    const later = new Date(Date.now() + t.ctx.config.fileSweepGraceMs + 60_000);
    expect(await t.services.uploads.sweepFiles(later)).toBe(1);
    expect(await exists(orphan)).toBe(false);
    for (const key of [upload.file_key, upload.rows_key]) {
      expect(key).not.toBeNull();
      if (key) expect(await exists(key)).toBe(true);
    }
    expect(t.ctx.config.fileSweepGraceMs).toBe(24 * 3_600_000);
  });
});
