import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../test/seeded-random.ts';
import { columnValues } from '../../../platform/files/row-tables.ts';
import { checkColumns } from './check-columns.ts';
import { checkRows } from './check-rows.ts';
import { rowsOfColumns } from './fast-csv.ts';

/** The values of checked columns, coded ones decoded. */
function decoded(data: ReturnType<typeof checkColumns>) {
  return data?.map(columnValues) ?? null;
}

/** The row check's verdict and converted values for the same texts. */
function byRows(fields: string[], columns: string[][], model: Record<string, unknown>) {
  const rows = rowsOfColumns(fields, columns, columns[0]?.length ?? 0);
  const check = checkRows({ rows, lines: rows.map((_, i) => i + 2), rowProblems: [] }, model, 10);
  return { valid: check.invalidRows === 0, data: fields.map((f) => check.rows.map((r) => r[f])) };
}

const MODEL = {
  type: 'object',
  required: ['code', 'qty'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    qty: { type: 'integer', minimum: 0 },
    price: { type: 'number', exclusiveMinimum: 0 },
    flag: { type: 'boolean' },
    day: { type: 'string', format: 'date' },
    mail: { type: 'string', format: 'email' },
    brand: { enum: ['', 'Renault', 'Dacia'] },
    note: { description: 'anything' },
  },
};

describe('the column check', () => {
  it('passes valid columns with the values coerced as the row check coerces them', () => {
    const fields = ['code', 'qty', 'price', 'flag', 'day', 'mail', 'brand', 'note'];
    const columns = [
      ['AB123', 'CD456', 'AB123'],
      ['1', ' 2 ', '0'],
      ['1.5', '1e3', '0.01'],
      ['true', 'false', 'true'],
      ['2026-02-28', '2024-02-29', '2026-12-31'],
      ['a@b.example', 'x.y@z.example', 'a@b.example'],
      ['', 'Renault', 'Dacia'],
      ['x', ' ', '12'],
    ];
    const data = checkColumns(fields, columns, MODEL);
    expect(data).not.toBeNull();
    const rows = byRows(fields, columns, MODEL);
    expect(rows.valid).toBe(true);
    expect(data).toEqual(rows.data);
    expect(data?.[1]).toEqual([1, 2, 0]);
    expect(data?.[3]).toEqual([true, false, true]);
  });

  it('answers a column of texts that repeat coded, as a stored table holds it', () => {
    const fields = ['code', 'qty'];
    const columns = [
      Array.from({ length: 40 }, (_, i) => ['AB123', 'CD456'][i % 2] as string),
      Array.from({ length: 40 }, (_, i) => String(i % 3)),
    ];
    const data = checkColumns(fields, columns, MODEL);
    expect(data?.[0]).toEqual({ values: ['AB123', 'CD456'], codes: columns[0]?.map((_, i) => i % 2) });
    // Numbers are not coded.
    expect(data?.[1]).toEqual(columns[1]?.map(Number));
    expect(decoded(data)).toEqual(byRows(fields, columns, MODEL).data);
    // A value that fails among repeated ones fails the file.
    columns[0]?.push('AB12');
    columns[1]?.push('1');
    expect(checkColumns(fields, columns, MODEL)).toBeNull();
  });

  it('declines a file with any invalid value, a missing required field or a field the model does not allow', () => {
    const fields = ['code', 'qty'];
    expect(checkColumns(fields, [['AB123'], ['1.5']], MODEL)).toBeNull();
    expect(checkColumns(fields, [['AB1234'], ['1']], MODEL)).toBeNull();
    expect(checkColumns(fields, [['AB123'], ['']], MODEL)).toBeNull();
    expect(checkColumns(fields, [['AB123'], ['9007199254740993']], MODEL)).toBeNull();
    expect(checkColumns(['code'], [['AB123']], MODEL)).toBeNull();
    expect(checkColumns(['code', 'qty', 'other'], [['AB123'], ['1'], ['x']], MODEL)).toBeNull();
    expect(checkColumns(['code', 'qty', 'day'], [['AB123'], ['1'], ['2026-02-30']], MODEL)).toBeNull();
  });

  it('declines data models holding keywords it does not know, leaving them to the row check', () => {
    const fields = ['a'];
    const columns = [['1']];
    for (const model of [
      { type: 'object', properties: { a: { type: ['string', 'null'] } } },
      { type: 'object', properties: { a: { $ref: '#/definitions/x' } }, definitions: { x: { type: 'string' } } },
      { type: 'object', properties: { a: { anyOf: [{ type: 'number' }] } } },
      { type: 'object', properties: { a: true } },
      { type: 'object', patternProperties: { '^a': { type: 'number' } } },
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } }, minProperties: 1 } },
    ]) {
      expect(checkColumns(fields, columns, model), JSON.stringify(model)).toBeNull();
    }
    // The items of an array data model are the rows' schema, as for the row check.
    const array = { type: 'array', items: { type: 'object', properties: { a: { type: 'number' } } } };
    expect(decoded(checkColumns(fields, columns, array))).toEqual([[1]]);
  });

  it('passes what the row check passes and nothing else, coercing as it does, on hundreds of generated files', () => {
    const next = seededRandom(20261123);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const texts = [
      '',
      ' ',
      '0',
      '1',
      '-1',
      '1.5',
      ' 2 ',
      '1e3',
      '9007199254740993',
      '12345678901234567890',
      '0x10',
      'Infinity',
      '-Infinity',
      'NaN',
      '\t7\n',
      '1_000',
      '-0',
      'true',
      'false',
      'TRUE',
      'null',
      'AB123',
      'abc',
      '2026-02-29',
      '2024-02-29',
      'a@b.example',
      'Renault',
      '\u00e9',
    ];
    const fieldSchemas: Record<string, unknown>[] = [
      { type: 'string' },
      { type: 'string', minLength: 1, maxLength: 3 },
      { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
      { type: 'string', format: 'date' },
      { type: 'string', format: 'email' },
      { type: 'number' },
      { type: 'number', minimum: 0, maximum: 10 },
      { type: 'number', multipleOf: 0.5 },
      { type: 'integer' },
      { type: 'integer', exclusiveMinimum: 0 },
      { type: 'boolean' },
      { enum: ['', 'Renault', '1'] },
      { type: 'number', enum: [1, 1.5] },
      { const: 'true' },
      { type: 'boolean', const: true },
      {},
    ];
    let vouched = 0;
    for (let t = 0; t < 500; t++) {
      const width = 1 + Math.floor(next() * 3);
      const fields = Array.from({ length: width }, (_, i) => `f${i}`);
      const properties = Object.fromEntries(fields.map((f) => [f, pick(fieldSchemas)]));
      const model: Record<string, unknown> = { type: 'object', properties };
      if (next() < 0.3) model.additionalProperties = false;
      if (next() < 0.3) model.required = [pick(fields)];
      const rowCount = 1 + Math.floor(next() * 9);
      // Mostly one value repeated per column, so that many files pass.
      const columns = fields.map(() => {
        const one = pick(texts);
        return Array.from({ length: rowCount }, () => (next() < 0.8 ? one : pick(texts)));
      });
      const data = checkColumns(fields, columns, model);
      const rows = byRows(fields, columns, model);
      // Every data model generated here is one the column check knows: it passes whatever the row check passes.
      expect(data === null, JSON.stringify({ model, columns })).toBe(!rows.valid);
      if (data === null) continue;
      vouched++;
      expect(rows.valid, JSON.stringify({ model, columns })).toBe(true);
      expect(decoded(data), JSON.stringify({ model, columns })).toEqual(rows.data);
    }
    expect(vouched).toBeGreaterThan(30);
  }, 120_000);
});
