import { describe, expect, it } from 'vitest';
import {
  asColumnTable,
  columnTable,
  rowsOfStored,
  rowsOfTable,
  storedRowsBytes,
  storedRowsJson,
  storedTableJson,
  storedTablesBytes,
  storedTablesText,
  tableJson,
} from './row-tables.ts';

const rows = [
  { code: 'AB', qty: 1, ok: true, note: null },
  { code: 'CD', qty: 2.5, ok: false, note: 'x "y"\n' },
];

describe('row tables', () => {
  it('stores rows that share their fields as columns, and rebuilds them as JSON.parse would', () => {
    const table = columnTable(rows);
    expect(table).toEqual({
      columns: ['code', 'qty', 'ok', 'note'],
      data: [
        ['AB', 'CD'],
        [1, 2.5],
        [true, false],
        [null, 'x "y"\n'],
      ],
    });
    const text = storedRowsJson([tableJson(rows)]);
    const many = Array.from({ length: 50 }, () => rows).flat();
    expect(tableJson(many).length).toBeLessThan(JSON.stringify(many).length * 0.6);
    expect(rowsOfStored(text)).toEqual(rows);
    expect(JSON.stringify(rowsOfStored(text))).toBe(JSON.stringify(rows));
  });

  it('keeps the rows as they are when they differ in fields, order or hold other values', () => {
    const unlike = [
      [{ a: 1 }, { a: 2, b: 3 }],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [{ a: 1 }, { a: [1, 2] }],
      [{ a: { b: 1 } }],
      [{ a: undefined }],
      [{}],
      [],
    ];
    for (const list of unlike) {
      expect(columnTable(list)).toBeNull();
      expect(tableJson(list)).toBe(JSON.stringify(list));
    }
  });

  it('codes the columns of texts that repeat in a stored table, and reads them back', () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ brand: ['A', 'B', ''][i % 3], part: `P${i}`, qty: i % 4 }));
    const text = storedTableJson(
      ['brand', 'part', 'qty'],
      ['brand', 'part', 'qty'].map((f) => many.map((r) => r[f as keyof typeof r])),
    );
    const stored = JSON.parse(text);
    expect(stored.data[0]).toEqual({ values: ['A', 'B', ''], codes: many.map((_, i) => i % 3) });
    // Texts that do not repeat enough, and numbers, are left as they are.
    expect(stored.data[1]).toEqual(many.map((r) => r.part));
    expect(stored.data[2]).toEqual(many.map((r) => r.qty));
    expect(text.length).toBeLessThan(JSON.stringify(columnTable(many)).length);
    // The rows of a valid file the row check passed are stored the same way.
    expect(tableJson(many)).toBe(text);
    expect(rowsOfStored(storedRowsJson([text, tableJson(rows)]))).toEqual([...many, ...rows]);
    // A code out of range, or not a whole number, makes the file unreadable.
    for (const codes of ['[3]', '[-1]', '[0.5]', '["0"]']) {
      expect(() =>
        rowsOfStored(storedRowsJson([`{"columns":["a"],"data":[{"values":["x","y","z"],"codes":${codes}}]}`])),
      ).toThrow('A stored table is not readable.');
    }
  });

  it('makes a field named __proto__ an own field, never a prototype', () => {
    const hostile = JSON.parse('[{"__proto__":{"polluted":true},"a":1}]') as Record<string, unknown>[];
    expect(columnTable(hostile)).toBeNull();
    const table = asColumnTable(JSON.parse('{"columns":["__proto__","a"],"data":[["x"],[1]]}'));
    expect(table).not.toBeNull();
    const [row] = rowsOfTable(table ?? { columns: [], data: [] });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row ?? {})).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(row)).toBe('{"__proto__":"x","a":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses malformed column tables from a component', () => {
    const bad = [
      null,
      [],
      { columns: [], data: [] },
      { columns: ['a'], data: [] },
      { columns: ['a', 'b'], data: [[1], [1, 2]] },
      { columns: ['a', 'a'], data: [[1], [2]] },
      { columns: [1], data: [[1]] },
      { columns: ['a'], data: ['x'] },
    ];
    for (const value of bad) expect(asColumnTable(value)).toBeNull();
  });

  it('joins tables given as bytes, and reads stored files old and new', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const joined = new TextDecoder().decode(storedRowsBytes([enc(tableJson(rows)), enc(JSON.stringify([{ z: 1 }]))]));
    expect(rowsOfStored(joined)).toEqual([...rows, { z: 1 }]);
    expect(rowsOfStored(JSON.stringify(rows))).toEqual(rows);
    expect(storedTablesText(storedRowsJson([]))).toBe('');
    expect(storedTablesText('{"other":1}')).toBeNull();
    expect(() => rowsOfStored('{"tables":[{"columns":["a"],"data":[]}]}')).toThrow('not readable');
  });

  it('finds the tables in the bytes of a stored file as a view of them, as it does in its text', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const texts = [
      storedRowsJson([tableJson(rows), JSON.stringify([{ z: 'é' }])]),
      storedRowsJson([]),
      ` ${JSON.stringify(rows)}\n`,
      '{"other":1}',
      '{"tables":[',
      '[',
      '',
    ];
    for (const text of texts) {
      const bytes = enc(text);
      const inner = storedTablesBytes(bytes);
      const expected = storedTablesText(text);
      expect(inner === null ? null : new TextDecoder().decode(inner)).toBe(expected);
      if (inner) expect(inner.buffer).toBe(bytes.buffer);
    }
  });
});
