import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import type { LogLine } from './logs.service.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Messages an array literal could misread if they were not sent as they are. */
const AWKWARD = ['NULL', 'null', '', '{a,b}', '"quoted"', 'back\\slash', 'comma, here', ' spaced ', 'line\nbreak', 'é ☃ 𝄞'];
const LEVELS = ['info', 'warn', 'error', 'success'] as const;

describe('appending log lines', () => {
  it('keeps a batch of 1,500 lines in the order given, each line as it was written', async () => {
    const importId = crypto.randomUUID();
    const uploadId = crypto.randomUUID();
    const lines: LogLine[] = Array.from({ length: 1500 }, (_, i) => ({
      level: LEVELS[i % LEVELS.length] ?? 'info',
      message: i < AWKWARD.length ? (AWKWARD[i] ?? '') : `line ${i}`,
      importId,
      uploadId: i % 3 === 0 ? uploadId : null,
      dataSubKind: i % 2 === 0 ? 'dealers' : null,
    }));
    await t.services.logs.append(lines);
    const read = await t.services.logs.forImport(importId);
    expect(read.map((l) => [l.level, l.message, l.uploadId, l.dataSubKind, l.importId])).toEqual(
      lines.map((l) => [l.level, l.message, l.uploadId, l.dataSubKind, importId]),
    );
    const ids = read.map((l) => Number(l._id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('appends one line, and a batch after it, in the order they were appended', async () => {
    const importId = crypto.randomUUID();
    await t.services.logs.append({ level: 'info', message: 'first', importId });
    await t.services.logs.append([
      { level: 'warn', message: 'second', importId },
      { level: 'success', message: 'third', importId },
    ]);
    await t.services.logs.append([]);
    expect((await t.services.logs.forImport(importId)).map((l) => l.message)).toEqual(['first', 'second', 'third']);
  });

  it('refuses a batch holding a level that is not one, writing none of it', async () => {
    const importId = crypto.randomUUID();
    const lines = [
      { level: 'info', message: 'kept?', importId },
      { level: 'loud', message: 'bad level', importId },
    ] as unknown as LogLine[];
    await expect(t.services.logs.append(lines)).rejects.toThrow();
    expect(await t.services.logs.forImport(importId)).toEqual([]);
  });
});
