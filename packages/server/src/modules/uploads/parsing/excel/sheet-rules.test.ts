import { describe, expect, it } from 'vitest';
import { zipArchive } from '../../../../../test/zip-archive.ts';
import { DEFAULT_LIMITS } from '../limits.ts';
import { Cell, NO_HINTS } from '../table.ts';
import { readWorkbook } from './index.ts';

// Workbooks written by hand, for what the corpus's writers never write: namespace prefixes, shared
// strings with entities, a 1904 workbook part, and the limits.

const WORKSHEET = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet';
const SHARED = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings';

/** A styles part whose first cell style shows dates (built-in format 14, `yyyy-mm-dd`). */
const DATE_STYLE = '<styleSheet><cellXfs count="1"><xf numFmtId="14"/></cellXfs></styleSheet>';

function book(sheet: string, { strings = '', workbookPr = '', styles = '<styleSheet/>' } = {}): Uint8Array {
  return zipArchive([
    {
      name: 'xl/workbook.xml',
      content: `<x:workbook xmlns:x="main" xmlns:r="r">${workbookPr}<x:sheets><x:sheet name="Data" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: `<Relationships><Relationship Id="rId1" Type="${WORKSHEET}" Target="/xl/worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${SHARED}" Target="sharedStrings.xml"/></Relationships>`,
    },
    { name: 'xl/sharedStrings.xml', content: `<sst>${strings}</sst>` },
    { name: 'xl/styles.xml', content: styles },
    { name: 'xl/worksheets/sheet1.xml', content: `<worksheet><sheetData>${sheet}</sheetData></worksheet>` },
  ]);
}

const text = (ref: string, value: string) => `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;

describe('sheets as written by hand', () => {
  it('reads prefixed elements, shared strings with entities and cells without addresses', () => {
    const sheet = `<x:row r="1"><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c></x:row><x:row><x:c t="s"><x:v>2</x:v></x:c><x:c><x:v>7</x:v></x:c></x:row>`;
    const strings = '<si><t>code</t></si><si><t>qty</t></si><si><r><t>Smith &amp;</t></r><r><t> Sons</t></r></si>';
    const table = readWorkbook(book(sheet, { strings }), 'xlsx', NO_HINTS, DEFAULT_LIMITS);
    expect(table.fields).toEqual(['code', 'qty']);
    expect(table.rows[0]?.code).toBe('Smith & Sons');
    expect(table.rows[0]?.qty).toEqual(new Cell({ kind: 'number', value: 7, shown: '7', raw: '7', ref: 'B2' }));
    expect(table.lines).toEqual([2]);
  });

  it('reads dates in the 1904 system the workbook part names', () => {
    const sheet = `<row r="1">${text('A1', 'day')}</row><row r="2"><c r="A2" t="d"><v>2026-03-01T00:00:00Z</v></c></row>`;
    const table = readWorkbook(book(sheet, { workbookPr: '<x:workbookPr date1904="1"/>' }), 'xlsx', NO_HINTS, DEFAULT_LIMITS);
    expect(table.rows[0]?.day).toEqual(new Cell({ kind: 'date', iso: '2026-03-01', shown: '2026-03-01', ref: 'A2' }));
  });

  it("takes the date system from the workbook's own workbookPr, not from an extension one after it", () => {
    const sheet = `<row r="1">${text('A1', 'day')}</row><row r="2"><c r="A2"><v>45000</v></c></row>`;
    const extension =
      '<x:extLst><x:ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}" xmlns:x15="x15"><x15:workbookPr chartTrackingRefBase="1"/></x:ext></x:extLst>';
    const bytes = book(sheet.replace('<c r="A2">', '<c r="A2" s="0">'), {
      workbookPr: `<x:workbookPr date1904="1"/>${extension}`,
      styles: DATE_STYLE,
    });
    expect(readWorkbook(bytes, 'xlsx', NO_HINTS, DEFAULT_LIMITS).rows[0]?.day).toMatchObject({ value: { iso: '2027-03-16' } });
  });

  it('gives an ISO date cell as its format shows it: the date under a date format, the time under a time format', () => {
    const styles =
      '<styleSheet><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy hh:mm"/></numFmts><cellXfs count="3"><xf numFmtId="14"/><xf numFmtId="21"/><xf numFmtId="164"/></cellXfs></styleSheet>';
    const at = (ref: string, s: number) => `<c r="${ref}" s="${s}" t="d"><v>2026-03-01T14:30:15</v></c>`;
    const sheet = `<row r="1">${text('A1', 'day')}${text('B1', 'time')}${text('C1', 'at')}${text('D1', 'plain')}</row><row r="2">${at('A2', 0)}${at('B2', 1)}${at('C2', 2)}<c r="D2" t="d"><v>2026-03-01T14:30:15</v></c></row>`;
    const row = readWorkbook(book(sheet, { styles }), 'xlsx', NO_HINTS, DEFAULT_LIMITS).rows[0] ?? {};
    const iso = Object.fromEntries(
      Object.entries(row).map(([k, v]) => [k, v instanceof Cell && v.value.kind === 'date' ? v.value.iso : v]),
    );
    expect(iso).toEqual({ day: '2026-03-01', time: '14:30:15', at: '2026-03-01T14:30:15', plain: '2026-03-01T14:30:15' });
  });

  it('takes the cells an array formula spans with no saved value as errors, its empty text results as values', () => {
    const sheet = `<row r="1">${text('A1', 'code')}${text('B1', 'out')}</row><row r="2">${text('A2', 'K1')}<c r="B2"><f t="array" ref="B2:B4">A2:A4&amp;""</f></c></row><row r="3">${text('A3', 'K2')}<c r="B3"/></row><row r="4">${text('A4', 'K3')}<c r="B4" t="str"><v></v></c></row><row r="5">${text('A5', 'K4')}</row>`;
    const rows = readWorkbook(book(sheet), 'xlsx', NO_HINTS, DEFAULT_LIMITS).rows;
    expect(
      rows.map((row) => (row.out instanceof Cell && row.out.value.kind === 'error' ? row.out.value.problem : row.out)),
    ).toEqual(['B2 is a formula with no saved value', 'B3 is a formula with no saved value', '', '']);
  });

  it('ignores cells beside the header and a column with neither a header name nor values', () => {
    const sheet = `<row r="1">${text('A1', 'code')}${text('C1', 'name')}</row><row r="2">${text('A2', 'K1')}${text('C2', 'one')}${text('F2', 'a note')}</row>`;
    const table = readWorkbook(book(sheet), 'xlsx', NO_HINTS, DEFAULT_LIMITS);
    expect(table.fields).toEqual(['code', 'name']);
    expect(table.rows).toEqual([{ code: 'K1', name: 'one' }]);
  });

  it('refuses a sheet with more rows than allowed, and a text longer than allowed (here a header cell)', () => {
    const rows = [2, 3, 4].map((r) => `<row r="${r}">${text(`A${r}`, `K${r}`)}</row>`).join('');
    const bytes = book(`<row r="1">${text('A1', 'code')}</row>${rows}`);
    expect(() => readWorkbook(bytes, 'xlsx', NO_HINTS, { ...DEFAULT_LIMITS, maxRows: 2 })).toThrow(
      'Sheet "Data" has more than 2 rows.',
    );
    expect(() => readWorkbook(bytes, 'xlsx', NO_HINTS, { ...DEFAULT_LIMITS, maxCellChars: 1 })).toThrow(
      'Cell A1 holds more than 1 characters.',
    );
  });

  it('looks for the header row in the first 20 rows that hold values', () => {
    const titles = Array.from({ length: 20 }, (_, i) => `<row r="${i + 1}">${text(`A${i + 1}`, `title ${i}`)}</row>`).join('');
    const bytes = book(`${titles}<row r="21">${text('A21', 'code')}</row><row r="22">${text('A22', 'K1')}</row>`);
    expect(() => readWorkbook(bytes, 'xlsx', { fields: ['code'], required: ['code'] }, DEFAULT_LIMITS)).toThrow(
      'sheet "Data" lacks code.',
    );
  });
});
