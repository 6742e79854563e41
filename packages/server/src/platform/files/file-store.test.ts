import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/test-db.ts';
import { databaseFileStore, type FileStore, localFileStore } from './file-store.ts';

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let dir: string;
beforeAll(async () => {
  testDb = await createTestDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-files-'));
});
afterAll(async () => {
  await testDb.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['local', () => localFileStore(dir)],
  ['database', () => databaseFileStore(testDb.db)],
] as const)('%s file store', (_kind, make: () => FileStore) => {
  it('keeps the bytes it acknowledged and deletes them on request', async () => {
    const store = make();
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const key = await store.put(bytes);
    expect([...(await store.get(key))]).toEqual([...bytes]);
    await store.delete(key);
    await expect(store.get(key)).rejects.toThrow();
  });

  it('gives back a large file byte for byte', async () => {
    const store = make();
    const bytes = crypto.randomBytes(3 * 1024 * 1024 + 7);
    const key = await store.put(bytes);
    expect(Buffer.from(await store.get(key)).equals(bytes)).toBe(true);
    await store.delete(key);
  });

  it('refuses keys that could leave its folder', async () => {
    const store = make();
    await expect(store.get('../../etc/passwd')).rejects.toThrow('Invalid file key');
    await expect(store.delete('/etc/passwd')).rejects.toThrow('Invalid file key');
  });
});
