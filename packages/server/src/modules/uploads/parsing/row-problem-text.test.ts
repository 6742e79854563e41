import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { quoted, rowProblemText } from './row-problem-text.ts';

const addFormats = 'default' in addFormatsModule ? addFormatsModule.default : addFormatsModule;

/** The problem texts of one row against a data model, as the upload check words them. */
function problemsOf(schema: Record<string, unknown>, row: Record<string, unknown>): string[] {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  validate(row);
  return (validate.errors ?? []).map(rowProblemText);
}

describe('rowProblemText', () => {
  it('names the field, the value found and what was expected, in plain words', () => {
    const schema = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        email: { type: 'string', format: 'email' },
        vehicles: { type: 'integer' },
        code: { type: 'string', pattern: '^[A-Z]{2}\\d{3}$' },
        openedOn: { type: 'string', format: 'date' },
        size: { enum: ['S', 'M'] },
      },
      additionalProperties: false,
    };
    const row = { email: 'bob@', vehicles: 'many', code: 'fr-1', openedOn: '2026-13-45', size: 'XL', extra: 1 };
    expect(problemsOf(schema, row)).toEqual([
      'name: no value, and one is required',
      'extra: this field is not in the data model',
      'email: "bob@" is not an e-mail address',
      'vehicles: "many" is not a whole number',
      'code: "fr-1" does not have the expected form (pattern ^[A-Z]{2}\\d{3}$)',
      'openedOn: "2026-13-45" is not a date (YYYY-MM-DD)',
      'size: "XL" is not one of "S", "M"',
    ]);
  });

  it('shortens a long value and says a missing one is no value', () => {
    expect(quoted('x'.repeat(100))).toBe(`"${'x'.repeat(39)}…"`);
    expect(quoted(null)).toBe('no value');
    expect(quoted(12.5)).toBe('12.5');
    expect(problemsOf({ properties: { price: { type: ['number', 'null'] } } }, { price: 'cheap' })).toEqual([
      'price: "cheap" is not a number or empty',
    ]);
  });
});
