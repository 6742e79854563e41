import { matchFieldsOf } from '@gdb/shared/uploads/column-matcher';
import { describe, expect, it } from 'vitest';
import { headOfCsv, proposeMapping, textOfHead } from './column-mapping.ts';

const fields = matchFieldsOf({
  type: 'object',
  required: ['dealerCode', 'name', 'city'],
  properties: { dealerCode: {}, name: {}, city: {}, email: {} },
});

describe("a chosen CSV file's header", () => {
  it('reads the names and the first three non-empty values of each column, with the delimiter the header splits best with', () => {
    const head = headOfCsv(
      '\uFEFFDealer Code;Name;City;E-Mail;Notes\r\nFR001;"Garage; du Centre";Lyon;;\r\nFR002;Auto Sud;;a@b.example;x\r\nFR003;N;L;;\r\nFR004',
    );
    expect(head.columns).toEqual(['Dealer Code', 'Name', 'City', 'E-Mail', 'Notes']);
    expect(head.samples[0]).toEqual(['FR001', 'FR002', 'FR003']);
    expect(head.samples[1]).toEqual(['Garage; du Centre', 'Auto Sud', 'N']);
    expect(head.samples[3]).toEqual(['a@b.example']);
    // The last record, without its line break, counts when the text is the whole file, not when it was cut.
    expect(headOfCsv('a,b\n1,2').samples).toEqual([['1'], ['2']]);
    expect(headOfCsv('a,b\n1,2', false).samples).toEqual([[], []]);
  });

  it("takes Excel's sep= line and leaves nameless columns out", () => {
    expect(headOfCsv('sep=,\na,,b\n1,,2\n').columns).toEqual(['a', 'b']);
  });

  it('reads Windows-1252 text when the header is not UTF-8', () => {
    expect(textOfHead(new Uint8Array([0x56, 0x69, 0x6c, 0x6c, 0xe9, 0x0a]))).toBe('Villé\n');
  });
});

describe('the mapping proposed', () => {
  it('asks when the header does not name the fields as they are, proposing the matcher’s choices', () => {
    const proposal = proposeMapping(['Dealer Code', 'Name', 'City', 'E-Mail', 'Notes'], { fields, mappings: [] });
    expect(proposal.ask).toBe(true);
    expect(proposal.ask && proposal.choices.map((c) => c.field)).toEqual(['dealerCode', 'name', 'city', 'email', null]);
  });

  it('does not ask for exact names, nor for a header with a stored mapping', () => {
    expect(proposeMapping(['dealerCode', 'name', 'city'], { fields, mappings: [] })).toEqual({ ask: false });
    const stored = {
      signature: 'city\u001fdealercode\u001femail\u001fname\u001fnotes',
      columns: [],
      updatedAt: '2026-12-06T00:00:00.000Z',
    };
    expect(proposeMapping(['Dealer Code', 'Name', 'City', 'E-Mail', 'Notes'], { fields, mappings: [stored] })).toEqual({
      ask: false,
    });
  });

  it('offers what an earlier mapping of the source chose for a column of that name', () => {
    const earlier = {
      signature: 'code',
      columns: [{ column: 'Code PDV', field: 'dealerCode' }],
      updatedAt: '2026-12-06T00:00:00.000Z',
    };
    const proposal = proposeMapping(['code pdv', 'Name', 'City'], { fields, mappings: [earlier] });
    expect(proposal.ask && proposal.choices[0]).toEqual({ column: 'code pdv', field: 'dealerCode' });
  });
});
