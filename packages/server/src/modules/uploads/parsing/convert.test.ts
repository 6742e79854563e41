import { describe, expect, it } from 'vitest';
import { checkRows } from './check-rows.ts';
import { convertValue, type FieldType, numberOfText } from './convert.ts';
import { BigJsonInteger, Cell } from './table.ts';

const number = (value: number, shown: string, raw = String(value)) => new Cell({ kind: 'number', value, shown, raw, ref: 'C7' });

describe('values converted by their field type', () => {
  it('takes an empty value as no value, whatever the type', () => {
    for (const type of ['string', 'number', 'integer', 'boolean', 'any'] as FieldType[]) {
      for (const empty of ['', '   ', '\t', '\u00a0', undefined]) {
        expect(convertValue(empty, type, 'f'), `${type} ${JSON.stringify(empty)}`).toEqual({ absent: true });
      }
    }
  });

  it('reads numbers in decimal notation only, and booleans in any case', () => {
    expect(convertValue(' 12 ', 'integer', 'qty')).toEqual({ value: 12 });
    expect(convertValue('-1.5e2', 'number', 'price')).toEqual({ value: -150 });
    // `+` would read these as numbers; they are left as text for the data model to refuse.
    for (const text of ['0x1A', '0b11', 'Infinity', '1,5', '12 kg']) {
      expect(convertValue(text, 'number', 'price'), text).toEqual({ value: text });
    }
    expect(numberOfText('1e400')).toBeUndefined();
    for (const [text, value] of [
      ['TRUE', true],
      ['false', false],
      ['True', true],
      [' FALSE ', false],
    ] as const) {
      expect(convertValue(text, 'boolean', 'ok'), text).toEqual({ value });
    }
    expect(convertValue('yes', 'boolean', 'ok')).toEqual({ value: 'yes' });
    // A text field keeps the text as written.
    expect(convertValue('00123', 'string', 'code')).toEqual({ value: '00123' });
    expect(convertValue('TRUE', 'string', 'code')).toEqual({ value: 'TRUE' });
  });

  it('never rounds an integer beyond 2^53: an error for a number field, the digits for a text field', () => {
    expect(convertValue('9007199254740993', 'integer', 'id')).toEqual({
      problem: 'id is 9007199254740993, an integer too large to be kept exact (beyond 2^53)',
    });
    expect(convertValue('9007199254740991', 'integer', 'id')).toEqual({ value: 9007199254740991 });
    expect(convertValue('9007199254740993', 'string', 'id')).toEqual({ value: '9007199254740993' });
    expect(convertValue(new BigJsonInteger('12345678901234567890'), 'number', 'id')).toEqual({
      problem: 'id is 12345678901234567890, an integer too large to be kept exact (beyond 2^53)',
    });
    expect(convertValue(new BigJsonInteger('12345678901234567890'), 'string', 'id')).toEqual({ value: '12345678901234567890' });
    expect(convertValue(number(12345678901234567000, '1.23457E+19', '12345678901234567890'), 'integer', 'id')).toEqual({
      problem: 'id (C7) is 12345678901234567890, an integer too large to be kept exact (beyond 2^53)',
    });
    expect(convertValue(number(12345678901234567000, '1.23457E+19', '12345678901234567890'), 'string', 'id')).toEqual({
      value: '12345678901234567890',
    });
    // Big integers inside a JSON value are kept as their digits.
    expect(convertValue({ ids: [new BigJsonInteger('99999999999999999999')] }, 'any', 'x')).toEqual({
      value: { ids: ['99999999999999999999'] },
    });
  });

  it('gives a sheet cell as the sheet shows it', () => {
    expect(convertValue(number(123, '00123'), 'string', 'code')).toEqual({ value: '00123' });
    expect(convertValue(number(0.155, '15.5%'), 'string', 'rate')).toEqual({ value: '15.5%' });
    expect(convertValue(number(0.155, '15.5%'), 'number', 'rate')).toEqual({ value: 0.155 });
    expect(convertValue(new Cell({ kind: 'date', iso: '2026-03-01', shown: '01/03/2026', ref: 'B2' }), 'string', 'd')).toEqual({
      value: '2026-03-01',
    });
    expect(convertValue(new Cell({ kind: 'boolean', value: true, shown: 'TRUE', ref: 'B2' }), 'boolean', 'ok')).toEqual({
      value: true,
    });
    expect(convertValue(new Cell({ kind: 'boolean', value: true, shown: 'TRUE', ref: 'B2' }), 'string', 'ok')).toEqual({
      value: 'TRUE',
    });
    expect(
      convertValue(new Cell({ kind: 'error', problem: 'D7 holds the error #DIV/0!', ref: 'D7' }), 'number', 'total'),
    ).toEqual({
      problem: 'total: D7 holds the error #DIV/0!',
    });
  });
});

describe('rows checked after conversion', () => {
  const model = {
    type: 'object',
    required: ['code'],
    properties: {
      code: { type: 'string', pattern: '^[A-Z]{2}$' },
      qty: { type: 'integer' },
      mail: { type: 'string', format: 'email' },
      day: { type: 'string', format: 'date' },
      ok: { type: 'boolean' },
    },
  };

  it('passes optional fields left empty and reports a required one as required, by the row numbers of the file', () => {
    const rows = [
      { code: 'AB', qty: '', mail: '', day: '', ok: '' },
      { code: '', qty: '3', mail: 'a@b.example', day: '2026-03-01', ok: 'TRUE' },
    ];
    const checked = checkRows({ rows, lines: [7, 9], rowProblems: [] }, model, 10);
    // Stored, a field with no value is null in its place.
    expect(checked.rows).toEqual([
      { code: 'AB', qty: null, mail: null, day: null, ok: null },
      { code: null, qty: 3, mail: 'a@b.example', day: '2026-03-01', ok: true },
    ]);
    expect(Object.keys(checked.rows[1] ?? {})).toEqual(['code', 'qty', 'mail', 'day', 'ok']);
    expect(checked.problems).toEqual([{ row: 9, message: 'Row 9, code: no value, and one is required' }]);
    expect(checked.invalidRows).toBe(1);
  });

  it('lists the problems found while reading, converting and checking in the order of the rows', () => {
    const rows = [{ code: 'AB', qty: '9007199254740993' }, { code: 'x' }, { code: 'CD' }];
    const checked = checkRows(
      { rows, lines: [2, 3, 5], rowProblems: [{ line: 5, message: 'Row 5: 3 values where the header has 2 fields.' }] },
      model,
      10,
    );
    expect(checked.problems.map((p) => p.message)).toEqual([
      'Row 2: qty is 9007199254740993, an integer too large to be kept exact (beyond 2^53)',
      'Row 3, code: "x" does not have the expected form (pattern ^[A-Z]{2}$)',
      'Row 5: 3 values where the header has 2 fields.',
    ]);
    expect(checked.invalidRows).toBe(3);
    expect(checked.problemCount).toBe(3);
  });
});
