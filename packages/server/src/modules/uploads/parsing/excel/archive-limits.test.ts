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
const WORKSHEET = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet';
const HEADER_ROW =
  '<row r="1"><c r="A1" t="inlineStr"><is><t>code</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>';
const SHEET_START = `<?xml version="1.0" encoding="UTF-8"?><worksheet><sheetData>${HEADER_ROW}`;
const SHEET_END = '</sheetData></worksheet>';

/** The parts around a sheet that make a workbook, written as `options` says. */
function workbook(sheet: Omit<ArchiveEntry, 'name'>, options: Partial<ArchiveEntry> = {}): Uint8Array {
  return zipArchive([
    {
      name: 'xl/workbook.xml',
      content: '<workbook xmlns:r="r"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ...options,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      content: `<Relationships><Relationship Id="rId1" Type="${WORKSHEET}" Target="worksheets/sheet1.xml"/></Relationships>`,
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
