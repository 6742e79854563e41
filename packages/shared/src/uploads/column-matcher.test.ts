import { describe, expect, it } from 'vitest';
import {
  headerSignature,
  MAPPING_MESSAGES,
  type MatchField,
  mappingIssue,
  mappingLine,
  matchColumns,
  matchFieldsOf,
  missingRequiredOf,
  normaliseName,
  targetsOf,
} from './column-matcher.ts';

const DEALER_MODEL = {
  type: 'object',
  required: ['dealerCode', 'name', 'city'],
  properties: {
    dealerCode: { type: 'string', title: 'Code concession' },
    name: { type: 'string' },
    city: { type: 'string', 'x-aliases': ['Ville', 'Town'] },
    email: { type: 'string', format: 'email' },
  },
};
const fields = matchFieldsOf(DEALER_MODEL);
const fieldsOf = (columns: string[]) => matchColumns(columns, fields).columns.map((c) => c.field);

describe('column names normalised', () => {
  it('leaves out case, spaces, accents and punctuation', () => {
    for (const name of ['Dealer Code', 'dealer_code', 'DEALER-CODE', ' dealer.code ', 'DéalerCode']) {
      expect(normaliseName(name)).toBe('dealercode');
    }
    expect(normaliseName('E-Mail')).toBe('email');
    expect(normaliseName('Côte d’Or')).toBe('cotedor');
  });

  it('gives the same header signature to the same names in another order or spelling', () => {
    expect(headerSignature(['Dealer Code', 'E-Mail'])).toBe(headerSignature(['email', 'dealer_code']));
    expect(headerSignature(['Dealer Code', 'E-Mail'])).not.toBe(headerSignature(['Dealer Code', 'E-Mail', 'Notes']));
  });
});

describe('the data model fields', () => {
  it('reads names, titles, alternate names and required fields, of an array model too', () => {
    const row: MatchField[] = [
      { name: 'dealerCode', title: 'Code concession', aliases: [], required: true },
      { name: 'name', aliases: [], required: true },
      { name: 'city', aliases: ['Ville', 'Town'], required: true },
      { name: 'email', aliases: [], required: false },
    ];
    expect(fields).toEqual(row);
    expect(matchFieldsOf({ type: 'array', items: DEALER_MODEL })).toEqual(row);
    expect(matchFieldsOf({ properties: { a: { 'x-aliases': ['b', 3] } } })).toEqual([
      { name: 'a', aliases: ['b'], required: false },
    ]);
  });
});

describe('columns matched to fields', () => {
  it('takes exact names as they are: no mapping needed', () => {
    const match = matchColumns(['dealerCode', 'name', 'city', 'email'], fields);
    expect(match.exact).toBe(true);
    expect(match.columns.every((c) => c.how === 'exact')).toBe(true);
    expect(match.missingRequired).toEqual([]);
  });

  it('matches by normalised name, leaving a column naming no field ignored', () => {
    const match = matchColumns(['Dealer Code', 'Name', 'City', 'E-Mail', 'Notes'], fields);
    expect(match.columns).toEqual([
      { column: 'Dealer Code', field: 'dealerCode', how: 'normalised' },
      { column: 'Name', field: 'name', how: 'normalised' },
      { column: 'City', field: 'city', how: 'normalised' },
      { column: 'E-Mail', field: 'email', how: 'normalised' },
      { column: 'Notes', field: null, how: null },
    ]);
    expect(match.exact).toBe(false);
    expect(match.missingRequired).toEqual([]);
  });

  it("matches by the field's title", () => {
    expect(matchColumns(['CODE CONCESSION'], fields).columns[0]).toEqual({
      column: 'CODE CONCESSION',
      field: 'dealerCode',
      how: 'title',
    });
  });

  it('matches by an alternate name (x-aliases)', () => {
    expect(matchColumns(['ville'], fields).columns[0]).toEqual({ column: 'ville', field: 'city', how: 'alias' });
  });

  it('gives a field two columns claim to the better match and names the other', () => {
    // "Town" is an alternate name of city, "CITY" its normalised name: the normalised name wins.
    const match = matchColumns(['Town', 'CITY', 'dealerCode', 'name'], fields);
    expect(fieldsOf(['Town', 'CITY'])).toEqual([null, 'city']);
    expect(match.contested).toEqual([{ column: 'Town', field: 'city' }]);
    // The exact name beats the normalised one, whatever the order.
    expect(fieldsOf(['dealer code', 'dealerCode'])).toEqual([null, 'dealerCode']);
    // Two equal matches: the first column keeps the field.
    expect(fieldsOf(['Ville', 'Town'])).toEqual(['city', null]);
  });

  it('names the required fields no column goes to', () => {
    const match = matchColumns(['Dealer Code', 'E-Mail'], fields);
    expect(match.missingRequired).toEqual(['name', 'city']);
  });
});

describe('a mapping checked and applied', () => {
  it('refuses a field not in the data model, a field given to two columns, and a required field left unmapped', () => {
    expect(mappingIssue([{ column: 'A', field: 'nope' }], fields)).toBe(MAPPING_MESSAGES.notAField('nope'));
    expect(
      mappingIssue(
        [
          { column: 'A', field: 'city' },
          { column: 'B', field: 'city' },
        ],
        fields,
      ),
    ).toBe('The mapping maps both "A" and "B" to the field "city".');
    const dealerOnly = [
      { column: 'Dealer Code', field: 'dealerCode' },
      { column: 'Notes', field: null },
    ];
    expect(mappingIssue(dealerOnly, fields)).toBe(MAPPING_MESSAGES.missing(missingRequiredOf(dealerOnly, fields)));
    const whole = [
      ...dealerOnly,
      ...fields.filter((f) => f.required && f.name !== 'dealerCode').map((f) => ({ column: f.name, field: f.name })),
    ];
    expect(mappingIssue(whole, fields)).toBeNull();
  });

  it('words the log line of the mapping used', () => {
    const line = mappingLine([
      { column: 'Dealer Code', field: 'dealerCode' },
      { column: 'E-Mail', field: 'email' },
      { column: 'name', field: 'name' },
      { column: 'Notes', field: null },
    ]);
    expect(line).toBe('Columns mapped: Dealer Code → dealerCode, E-Mail → email; ignored: Notes');
  });

  it('applies a stored mapping to a header of the same signature, by exact then normalised name', () => {
    const stored = [
      { column: 'Dealer Code', field: 'dealerCode' },
      { column: 'Notes', field: null },
    ];
    expect(targetsOf(['NOTES', 'dealer code'], stored)).toEqual([null, 'dealerCode']);
  });
});
