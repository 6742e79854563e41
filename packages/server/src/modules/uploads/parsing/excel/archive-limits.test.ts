import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureRead } from '../../../../../test/measure-read.ts';
import { type ArchiveEntry, deflateOfRepeat, zipArchive } from '../../../../../test/zip-archive.ts';
import { DEFAULT_LIMITS } from '../limits.ts';
import { readWorkbook } from './index.ts';

// Archives built byte by byte that lie about their sizes or swell once inflated: each is read or
// refused within 2 s with the reading process's resident memory growing by at most 100 MiB, measured
// in a process of its own (see test/measure-read.ts).

const HINTS = { fields: ['code', 'name'], required: ['code'] };
const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;
const WORKSHEET = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet';
const SHARED = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings';
const HEADER_ROW =
  '<row r="1"><c r="A1" t="inlineStr"><is><t>code</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>';
const SHEET_START = `<?xml version="1.0" encoding="UTF-8"?><worksheet><sheetData>${HEADER_ROW}`;
const SHEET_END = '</sheetData></worksheet>';

/** The parts around a sheet that make a workbook, written as `options` says, with shared strings when given. */
function workbook(sheet: Omit<ArchiveEntry, 'name'>, options: Partial<ArchiveEntry> = {}, strings?: string): Uint8Array {
  const shared = strings === undefined ? [] : [{ name: 'xl/sharedStrings.xml', content: strings }];
  return zipArchive([
    ...shared,
    {
      name: 'xl/workbook.xml',
      content: '<workbook xmlns:r="r"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ...options,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: `<Relationships><Relationship Id="rId1" Type="${WORKSHEET}" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${SHARED}" Target="sharedStrings.xml"/></Relationships>`,
      ...options,
    },
    { name: 'xl/worksheets/sheet1.xml', ...sheet, ...options },
  ]);
}

function rowsXml(count: number): string {
  const rows: string[] = [];
  for (let r = 2; r < count + 2; r++) {
    rows.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>C${r}</t></is></c><c r="B${r}"><v>${r}</v></c></row>`);
  }
  return rows.join('');
}

/** A sheet that inflates to `bytes` of blanks between its header row and its end. */
const bomb = (bytes: number) => ({ content: '', compressed: deflateOfRepeat(SHEET_START, ' ', bytes, SHEET_END) });

/**
 * Within 2 s of CPU time (the wall-clock time on an idle machine: a shared one stretches the latter
 * by whatever else runs) and 100 MiB of resident memory.
 */
function expectCheap(cost: ReturnType<typeof measureRead>): void {
  expect(cost.cpuMs).toBeLessThan(2000);
  expect(cost.peakRssGrowthMiB).toBeLessThanOrEqual(100);
}

describe('archives that lie about their sizes', () => {
  it('refuses a sheet whose sizes are faked in both headers once it inflates past the budget', () => {
    const cost = measureRead(workbook({ ...bomb(2 * GiB), claimedSize: 1000 }), 'xlsx', HINTS);
    expect(cost.refused).toMatch(/^The workbook is refused: it decompresses to more than 100 times its size/);
    expectCheap(cost);
  });

  it('refuses a streamed sheet (sizes 0, a data descriptor after its data) once it inflates past the budget', () => {
    const cost = measureRead(workbook({ ...bomb(2 * GiB), streamed: true }), 'xlsx', HINTS);
    expect(cost.refused).toMatch(/decompresses to more than 100 times its size/);
    expectCheap(cost);
  });

  it('refuses a workbook past the total it may inflate to, whatever its ratio', () => {
    const cost = measureRead(workbook(bomb(GiB)), 'xlsx', HINTS, { maxInflatedBytes: 24 * 1024 * 1024, maxInflateRatio: 1e6 });
    expect(cost.refused).toBe('The workbook is refused: it decompresses to more than 24 MiB.');
    expectCheap(cost);
  });

  it('refuses a part read whole (the workbook part, its styles) past 32 MiB, whatever its ratio', () => {
    const bytes = zipArchive([
      { name: 'xl/workbook.xml', content: `<workbook>${' '.repeat(33 * MiB)}</workbook>` },
      { name: 'xl/worksheets/sheet1.xml', content: `${SHEET_START}${SHEET_END}` },
    ]);
    const cost = measureRead(bytes, 'xlsx', HINTS, { maxInflateRatio: 1e6 });
    expect(cost.refused).toBe('The workbook is refused: its part xl/workbook.xml holds more than 32 MiB.');
    expectCheap(cost);
  });

  it('reads a sparse sheet (a cell at XFD1048576 and 100,000 rows) by its cells', () => {
    const content = `${SHEET_START}${rowsXml(100_000)}<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>${SHEET_END}`;
    const cost = measureRead(workbook({ content }), 'xlsx', HINTS);
    expect(cost).toMatchObject({ rows: 100_000 });
    expectCheap(cost);
  });

  it('reads a sparse XLS (a cell at IV65536, the last an XLS has, and 1,000 rows) by its cells', () => {
    const bytes = new Uint8Array(fs.readFileSync(path.join(import.meta.dirname, '../../../../../test/corpus/excel/sparse.xls')));
    const cost = measureRead(bytes, 'xls', HINTS);
    expect(cost).toMatchObject({ rows: 1000 });
    expectCheap(cost);
  });

  it('reads the sheet whatever the sizes say: streamed, stored, or claimed too small', () => {
    const content = `${SHEET_START}${rowsXml(3)}${SHEET_END}`;
    for (const options of [{ streamed: true }, { method: 0 as const }, { claimedSize: 5 }]) {
      const table = readWorkbook(workbook({ content }, options), 'xlsx', HINTS, DEFAULT_LIMITS);
      expect(table.lines, JSON.stringify(options)).toEqual([2, 3, 4]);
      expect(table.rows[2]).toMatchObject({ code: 'C4' });
    }
  });

  it('refuses an archive cut short with a message saying so', () => {
    const bytes = workbook({ content: `${SHEET_START}${rowsXml(10)}${SHEET_END}` });
    expect(() => readWorkbook(bytes.subarray(0, bytes.length - 30), 'xlsx', HINTS, DEFAULT_LIMITS)).toThrow(
      'The workbook is not a readable archive',
    );
  });
});

/** `unit` repeated to `bytes`. */
const repeat = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length));
/** A sheet whose one cell reads the first shared string. */
const USES_STRING = `${SHEET_START}<row r="2"><c r="A2" t="s"><v>0</v></c></row>${SHEET_END}`;

/**
 * Parts written to make a reader search far, or hold much, for each element: a tag, a cell, a
 * comment or a string item that never ends; elements whose names hold no colon; searches that
 * would start again from every `<`; cells, array formulas and merged ranges by the hundred
 * thousand. Each inflates to 20 MiB from a few dozen KiB.
 */
const CRAFTED: Record<string, () => Uint8Array> = {
  'rows that repeat one row': () =>
    workbook({ content: `${SHEET_START}${repeat('<row r="2"><c r="A2"><v>1</v></c></row>', 20 * MiB)}` }),
  'a cell that never ends': () => workbook({ content: `${SHEET_START}<row r="2"><c r="A2"><v>${repeat('x', 20 * MiB)}` }),
  'a tag that never ends': () => workbook({ content: `${SHEET_START}<row r="2"><c r="A2" ${repeat('a', 20 * MiB)}` }),
  'a comment that never ends': () => workbook({ content: `${SHEET_START}<!--${repeat('x', 20 * MiB)}` }),
  'a sheet of <': () => workbook({ content: `${SHEET_START}${repeat('<', 20 * MiB)}` }),
  'cells that open and never end': () => workbook({ content: `${SHEET_START}<row r="2">${repeat('<c>', 20 * MiB)}` }),
  'values that open in a cell': () =>
    workbook({ content: `${SHEET_START}<row r="2"><c r="A2">${repeat('<v a', 20 * MiB)}</c></row>` }),
  'one cell written again and again': () =>
    workbook({ content: `${SHEET_START}<row r="2">${repeat('<c r="A2"><v>1</v></c>', 20 * MiB)}</row>${SHEET_END}` }),
  'array formulas over the whole sheet': () =>
    workbook({
      content: `${SHEET_START}<row r="2">${repeat('<c r="A2"><f t="array" ref="A2:XFD1048576">1</f></c>', 20 * MiB)}</row>${SHEET_END}`,
    }),
  'merged ranges by the hundred thousand': () =>
    workbook({
      content: `${SHEET_START}<row r="2"><c r="A2"><v>1</v></c></row></sheetData><mergeCells>${repeat('<mergeCell ref="A2:B1048576"/>', 20 * MiB)}</mergeCells></worksheet>`,
    }),
  'a string item that never ends': () => workbook({ content: USES_STRING }, {}, `<sst><si><t>${repeat('x', 20 * MiB)}`),
  'string item tags that never end': () => workbook({ content: USES_STRING }, {}, `<sst>${repeat('<si ', 20 * MiB)}`),
  'shared strings of <': () => workbook({ content: USES_STRING }, {}, `<sst>${repeat('<', 20 * MiB)}`),
  'phonetic hints that never end': () =>
    workbook({ content: USES_STRING }, {}, `<sst><si><t>a</t>${repeat('<rPh ', 20 * MiB)}</si></sst>`),
  'text runs that never end': () => workbook({ content: USES_STRING }, {}, `<sst><si>${repeat('<t a', 20 * MiB)}</si></sst>`),
  'string items by the million': () => workbook({ content: USES_STRING }, {}, `<sst>${repeat('<si><t>a</t></si>', 20 * MiB)}`),
};

describe('crafted workbooks', () => {
  it.each(Object.keys(CRAFTED))('refuses %s within 2 s of CPU and 100 MiB', (shape) => {
    const cost = measureRead(CRAFTED[shape]?.() ?? new Uint8Array(), 'xlsx', HINTS);
    expect(cost.refused).toMatch(
      /^(The workbook is refused|Sheet "Data" (holds a cell longer|is damaged)|The workbook holds a text longer)/,
    );
    expectCheap(cost);
  });
});
