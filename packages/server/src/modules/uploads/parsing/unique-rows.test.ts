import { describe, expect, it } from 'vitest';
import { checkRows } from './check-rows.ts';
import { parseFile } from './parse-file.ts';
import { repeatedRows } from './unique-rows.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const row = { type: 'object', properties: { code: { type: 'string' }, price: { type: 'number' } } };
const unique = { type: 'array', uniqueItems: true, items: row };

describe('rows a data model holds once', () => {
  it('flags at check time each CSV row that repeats an earlier one, by row, value and the row it repeats', () => {
    const out = parseFile({ bytes: enc('code,price\nAB,1\nCD,2\nAB,1\nAB,3\nCD,2\n'), group: 'csv', dataModel: unique });
    expect(out.status).toBe('invalid');
    expect(out.problems).toEqual([
      {
        row: 4,
        message: 'Row 4, the row: {"code":"AB","price":1} repeats row 2, and the data model holds each row once (Unique items)',
      },
      {
        row: 6,
        message: 'Row 6, the row: {"code":"CD","price":2} repeats row 3, and the data model holds each row once (Unique items)',
      },
    ]);
    expect(out.summary).toBe('5 rows read, 2 invalid (2 problems).');
  });

  it('lets the same rows pass where the data model does not ask for unique items', () => {
    const out = parseFile({ bytes: enc('code,price\nAB,1\nAB,1\n'), group: 'csv', dataModel: { ...unique, uniqueItems: false } });
    expect(out.status).toBe('valid');
  });

  it('compares rows as values: fields in another order, and an empty cell as no value', () => {
    const read = {
      rows: [
        { code: 'AB', price: '' },
        { price: '', code: 'AB' },
      ],
      lines: [2, 3],
      rowProblems: [],
    };
    const checked = checkRows(read, unique, 10);
    expect(checked.invalidRows).toBe(1);
    expect(checked.problems.map((p) => p.row)).toEqual([3]);
  });

  it('counts every repeat past the problems it lists', () => {
    const rows = Array.from({ length: 30 }, () => ({ code: 'AB' }));
    const { problems, indexes } = repeatedRows(
      rows,
      rows.map((_, i) => i + 2),
      10,
    );
    expect(problems).toHaveLength(10);
    expect(indexes).toHaveLength(29);
  });

  it('shortens a long row in its problem', () => {
    const long = 'x'.repeat(100);
    const { problems } = repeatedRows([{ code: long }, { code: long }], [2, 3], 10);
    expect(problems[0]?.message).toMatch(/^the row: \{"code":"x+…/);
    expect(problems[0]?.message.length).toBeLessThan(140);
  });
});
