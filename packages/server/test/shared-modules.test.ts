import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server's test files run one after the other in a worker that loads the server's modules
// once (vitest.config.ts: `isolate: false`). A file that replaced a module, the environment, a
// global or the clock would change them for every file after it: none may.
const CHANGES_SHARED_STATE = [
  /\bvi\.(?:mock|doMock)\(/,
  /\bvi\.stub(?:Env|Global)\(/,
  /\bvi\.useFakeTimers\(/,
  /\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*(?:\?\?|\|\||&&)?=(?!=)/,
  /\bdelete\s+process\.env\b/,
];

const root = path.resolve(import.meta.dirname, '..');

/** The server's test files under `dir`. */
const testFiles = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));

describe('server test files', () => {
  it('leave the modules, the environment, the globals and the clock as they found them', () => {
    const files = [...testFiles(path.join(root, 'src')), ...testFiles(path.join(root, 'test'))];
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap((file) => {
      const text = fs.readFileSync(file, 'utf8');
      const own = file === import.meta.filename;
      return !own && CHANGES_SHARED_STATE.some((rule) => rule.test(text)) ? [path.relative(root, file)] : [];
    });
    expect(offending).toEqual([]);
  });

  it('would find each kind of change', () => {
    for (const line of [
      "vi.mock('./x.ts')",
      'vi.doMock("y")',
      "vi.stubEnv('A', '1')",
      'vi.stubGlobal("fetch", f)',
      'vi.useFakeTimers()',
      "process.env.DATA_DIR = '/tmp'",
      "process.env['X'] = 'y'",
      "process.env.TZ ??= 'UTC'",
      'delete process.env.X',
    ])
      expect(CHANGES_SHARED_STATE.some((rule) => rule.test(line))).toBe(true);
    expect(CHANGES_SHARED_STATE.some((rule) => rule.test('if (process.env.X === "1") go();'))).toBe(false);
  });
});
