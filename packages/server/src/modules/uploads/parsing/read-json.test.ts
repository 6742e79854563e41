import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from './limits.ts';
import { readJson } from './read-json.ts';
import { BigJsonInteger } from './table.ts';

const read = (text: string, ...fields: string[]) => readJson(text, { fields, required: [] }, DEFAULT_LIMITS);

describe('readJson', () => {
  it('reads an array of objects, JSON lines numbered by line, and one object as one row', () => {
    expect(read('[{"a":1},{"a":2}]')).toMatchObject({ rows: [{ a: 1 }, { a: 2 }], lines: [1, 2], fields: ['a'] });
    expect(read('{"a":1}\n\n{"b":2}\n')).toMatchObject({ rows: [{ a: 1 }, { b: 2 }], lines: [1, 3], fields: ['a', 'b'] });
    expect(read('{"a":1,"b":[{"c":1}]}').rows).toEqual([{ a: 1, b: [{ c: 1 }] }]);
  });

  it('reads a top-level object with one array property as its records', () => {
    const out = read('{"data":[{"code":"A"},{"code":"B"}]}');
    expect(out.rows).toEqual([{ code: 'A' }, { code: 'B' }]);
    expect(out.notes).toEqual([{ level: 'info', message: 'The rows are the items of "data".' }]);
    const paged = read('{"page":1,"items":[{"code":"A"}]}', 'code');
    expect(paged.rows).toEqual([{ code: 'A' }]);
    expect(paged.notes[0]?.message).toBe('The rows are the items of "items"; the other properties (page) are not read.');
    // An object whose other properties are data model fields is one row with a list in it.
    expect(read('{"code":"A","lines":[{"n":1}]}', 'code', 'lines').rows).toEqual([{ code: 'A', lines: [{ n: 1 }] }]);
  });

  it('keeps integers beyond 2^53 as written, at any depth, and leaves other numbers and strings alone', () => {
    const [row] = read(
      '[{"id":9007199254740993,"n":{"m":[-123456789012345678901]},"ok":9007199254740991,"f":12345678901234567.5,"s":"9007199254740993"}]',
    ).rows;
    expect(row).toEqual({
      id: new BigJsonInteger('9007199254740993'),
      n: { m: [new BigJsonInteger('-123456789012345678901')] },
      ok: 9007199254740991,
      f: Number('12345678901234567.5'),
      s: '9007199254740993',
    });
  });

  it('refuses what is not rows, naming the item, and documents nested deeper than the limit', () => {
    expect(() => read('[{"a":1},2]')).toThrow('Item 2 is not an object.');
    expect(() => read('{"a":1}\n{"a":\n')).toThrow('Line 2 is not valid JSON.');
    expect(() => read(`[${'['.repeat(80)}${']'.repeat(80)}]`)).toThrow(
      `The JSON is nested deeper than ${DEFAULT_LIMITS.maxDepth} levels.`,
    );
    // Deep enough to overflow a recursive walk, with a big integer at the bottom.
    const deep = `[${'['.repeat(100_000)}12345678901234567890${']'.repeat(100_000)}]`;
    expect(() => read(deep)).toThrow(`The JSON is nested deeper than ${DEFAULT_LIMITS.maxDepth} levels.`);
  });

  it('refuses an object naming a key twice, as a header naming a field twice, naming the key and its item or line', () => {
    expect(() => read('[{"code":"A"},{"code":"B","name":"x","code":"C"}]')).toThrow('Item 2 names "code" more than once.');
    expect(() => read('{"code":"A"}\n{"code":"B","code":"C"}\n')).toThrow('Line 2 names "code" more than once.');
    expect(() => read('[{"code":"A","lines":[{"n":1,"n":2}]}]')).toThrow('Item 1 names "n" more than once.');
    expect(() => read('{"data":[{"code":"A","code":"B"}]}')).toThrow('An object of the file names "code" more than once.');
    // The same key in two objects, and texts that look like keys inside strings, are no repetition.
    const fine = read('[{"code":"A","note":"say \\"code\\": 1"},{"code":"B","inner":{"code":"C"}}]');
    expect(fine.rows).toHaveLength(2);
  });
});
