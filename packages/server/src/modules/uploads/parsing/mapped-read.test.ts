import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { rowsOfStored } from '../../../platform/files/row-tables.ts';
import { joinCsvParts, parseCsvPart } from './csv-parts.ts';
import { parseFile } from './parse-file.ts';
import { splitCsv } from './split-csv.ts';

const enc = (s: string) => new TextEncoder().encode(s);

const model = {
  type: 'object',
  required: ['dealerCode', 'city'],
  additionalProperties: false,
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    city: { type: 'string', 'x-aliases': ['Ville'] },
    vehicles: { type: 'integer' },
  },
};
const mapping = [
  { column: 'Dealer Code', field: 'dealerCode' },
  { column: 'Ville', field: 'city' },
  { column: 'Vehicles', field: 'vehicles' },
  { column: 'Notes', field: null },
];
const LINE = 'Columns mapped: Dealer Code → dealerCode, Ville → city, Vehicles → vehicles; ignored: Notes';

describe('a stored column mapping applied as the file is read', () => {
  it('renames the CSV columns of a header with that signature and leaves the ignored ones out, saying so in the log', () => {
    const csv = 'Notes;dealer code;VILLE;vehicles\nhi;FR001;Lyon;3\n;FR002;Nantes;\n';
    const out = parseFile({ bytes: enc(csv), group: 'csv', dataModel: model, columnMappings: [mapping] });
    expect(out.status).toBe('valid');
    expect(rowsOfStored(out.rowsJson ?? '')).toEqual([
      { dealerCode: 'FR001', city: 'Lyon', vehicles: 3 },
      { dealerCode: 'FR002', city: 'Nantes', vehicles: null },
    ]);
    expect(out.notes.map((n) => n.message)).toContain('Columns mapped: dealer code → dealerCode, VILLE → city; ignored: Notes');
  });

  it('reads a header with no mapping as written', () => {
    const out = parseFile({ bytes: enc('Dealer Code,Ville\nFR001,Lyon\n'), group: 'csv', dataModel: model, columnMappings: [] });
    expect(out.status).toBe('invalid');
    expect(out.summary).toMatch(/none of the data model's fields/);
    const other = parseFile({
      bytes: enc('Dealer Code,Ville,Extra\nFR001,Lyon,x\n'),
      group: 'csv',
      dataModel: model,
      columnMappings: [mapping],
    });
    expect(other.status).toBe('invalid');
  });

  it('renames the columns of a workbook and of JSON objects', () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['Dealer Code', 'Ville', 'Vehicles', 'Notes'],
      ['FR001', 'Lyon', 3, 'x'],
    ]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Data');
    const xlsx = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }));
    const json = enc(JSON.stringify([{ 'Dealer Code': 'FR001', Ville: 'Lyon', Vehicles: 3, Notes: 'x' }]));
    for (const [group, bytes] of [
      ['excel', xlsx],
      ['json', json],
    ] as const) {
      const out = parseFile({ bytes, group, dataModel: model, columnMappings: [mapping] });
      expect(out.status, group).toBe('valid');
      expect(rowsOfStored(out.rowsJson ?? '')).toEqual([{ dealerCode: 'FR001', city: 'Lyon', vehicles: 3 }]);
      expect(out.notes.map((n) => n.message)).toContain(LINE);
    }
  });

  it('maps every slice of a large CSV file alike', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `FR${String(i % 1000).padStart(3, '0')};Lyon;${i};n`);
    const bytes = enc(`Dealer Code;Ville;Vehicles;Notes\n${rows.join('\n')}\n`);
    const slices = splitCsv(bytes, 2) ?? [];
    expect(slices).toHaveLength(2);
    const parts = slices.map((slice) =>
      parseCsvPart({ kind: 'csv-part', bytes: slice, dataModel: model, columnMappings: [mapping] }),
    );
    const joined = joinCsvParts(parts);
    expect(joined?.status).toBe('valid');
    expect(joined?.rowCount).toBe(2000);
    expect(joined?.notes.map((n) => n.message)).toContain(LINE);
  });
});
