import { ParseError, type ParseLimits } from '../limits.ts';
import { booleanCell, type CellRead, cellRef, errorCell, isoDateCell, numberCell, unsavedFormulaCell } from './cell-value.ts';
import { KeptText } from './kept-text.ts';
import { firstAtOrAfter, type MergeRange, parseMergeRange } from './merges.ts';
import { GENERAL, type NumberFormat } from './number-format.ts';
import { RowFeeder } from './row-feeder.ts';
import type { SheetTable } from './sheet-table.ts';
import { attribute, decodeEntities, decodeText, ownString, runsText } from './xml.ts';

// A worksheet's XML read as it is inflated, without building a document: rows, their cells and the
// merged ranges, each handed to the sheet's table as soon as it is whole. A sheet is read by the
// cells it holds, never by the rectangle its far cells span.

/** What the cells of a workbook need to be read: its shared strings, styles and date system. */
export interface WorkbookContext {
  sharedStrings: readonly string[];
  formats: readonly NumberFormat[];
  date1904: boolean;
  limits: ParseLimits;
}

const SLASH = 0x2f;
const COLON = 0x3a;
const LETTER_C = 0x63;
/** Characters that end an element's name: blanks, `/` and `>`. */
const NAME_END = new Set([0x20, 0x09, 0x0a, 0x0d, SLASH, 0x3e]);
/** What {@link SheetScanner} answers for an element not whole yet, and for a sheet not to read further. */
const CUT = -1;
const STOP = -2;
// Attribute texts stop at `<` as well as `>`: a search from each `<` ends at the next one.
const VALUE = /<(?:[\w.-]+:)?v(?:\s[^<>]*)?>([^<]*)<\/(?:[\w.-]+:)?v>/;
const FORMULA = /<(?:[\w.-]+:)?f[\s/>]/;
const FORMULA_TAG = /<(?:[\w.-]+:)?f(\s[^<>]*)>/;

/** The range an array formula's cell spans (`<f t="array" ref="C2:C4">`), or undefined. */
function arrayRange(inner: string): MergeRange | undefined {
  const tag = FORMULA_TAG.exec(inner)?.[1];
  if (tag === undefined || attribute(tag, 't') !== 'array') return undefined;
  return parseMergeRange(attribute(tag, 'ref') ?? '');
}

/** Where an element's local name starts: after its prefix's colon, looked for within the name only. */
function localNameStart(xml: string, nameStart: number, nameEnd: number): number {
  for (let i = nameStart; i < nameEnd; i++) if (xml.charCodeAt(i) === COLON) return i + 1;
  return nameStart;
}

/** The 0-based column of a cell address (`C7` → 2), or -1. */
function columnOf(ref: string): number {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 97 || c > 122) break;
    column = column * 26 + (c - 96);
  }
  return i === 0 || i > 3 ? -1 : column - 1;
}

function cellText(inner: string): string | undefined {
  const start = inner.indexOf('<v>');
  if (start >= 0) {
    const end = inner.indexOf('</v>', start);
    if (end >= 0) return inner.slice(start + 3, end);
  }
  return inner.includes('v') ? VALUE.exec(inner)?.[1] : undefined;
}

/** A cell's value from its attributes and content. */
function cellValue(attributes: string, inner: string, column: number, line: number, context: WorkbookContext): CellRead {
  const type = attribute(attributes, 't') ?? 'n';
  const text = cellText(inner);
  if (type === 'inlineStr') return ownString(checked(runsText(inner), column, line, context));
  if (text === undefined || (text === '' && type !== 'str')) {
    return FORMULA.test(inner) ? unsavedFormulaCell(cellRef(column, line)) : '';
  }
  switch (type) {
    case 's':
      return checked(context.sharedStrings[Number(text)] ?? '', column, line, context);
    case 'str':
      return ownString(checked(decodeText(text), column, line, context));
    case 'b':
      return booleanCell(text.trim() === '1' || text.trim() === 'true', cellRef(column, line));
    case 'e':
      return errorCell(decodeEntities(text), cellRef(column, line));
    case 'd':
      return isoDateCell(text, formatOf(attributes, context), cellRef(column, line));
    default:
      return numberCell(text.trim(), formatOf(attributes, context), context.date1904, cellRef(column, line));
  }
}

function formatOf(attributes: string, context: WorkbookContext): NumberFormat {
  const style = attribute(attributes, 's');
  return style === undefined ? GENERAL : (context.formats[Number(style)] ?? GENERAL);
}

function checked(text: string, column: number, line: number, context: WorkbookContext): string {
  if (text.length > context.limits.maxCellChars) {
    throw new ParseError(`Cell ${cellRef(column, line)} holds more than ${context.limits.maxCellChars} characters.`);
  }
  return text;
}

/** Reads a sheet's XML given piece by piece; `push` returns false once the sheet need not be read further. */
export class SheetScanner {
  private readonly kept: KeptText;
  private readonly feeder: RowFeeder;
  private line = 0;
  private column = -1;
  private inRow = false;
  /** The last row each column's array formulas span, for the columns read: their cells without a saved value are errors. */
  private readonly arrays = new Map<number, number>();
  /** The columns of the current row that held a cell, while array formulas span some. */
  private readonly held = new Set<number>();

  constructor(
    private readonly table: SheetTable,
    private readonly context: WorkbookContext,
  ) {
    this.feeder = new RowFeeder(table);
    const { maxCellChars } = context.limits;
    this.kept = new KeptText(
      maxCellChars * 8 + 1024 * 1024,
      () => new ParseError(`Sheet "${table.sheet}" holds a cell longer than ${maxCellChars} characters.`),
    );
  }

  push(text: string): boolean {
    const xml = this.kept.take(text);
    return xml === undefined || this.scan(xml);
  }

  /** Reads the elements of a text; false once the sheet need not be read further. */
  private scan(xml: string): boolean {
    let pos = 0;
    let keepFrom = xml.length;
    for (;;) {
      const open = xml.indexOf('<', pos);
      if (open < 0) break;
      const close = xml.indexOf('>', open);
      if (close < 0) {
        keepFrom = open;
        break;
      }
      const next = this.element(xml, open, close);
      if (next === STOP) return false;
      if (next === CUT) {
        keepFrom = open;
        break;
      }
      pos = next;
    }
    this.kept.keep(xml, keepFrom);
    return true;
  }

  /**
   * Handles the element whose tag spans `open`…`close` (a cell, a row's start or end, a merged
   * range; others are passed over): where reading goes on, {@link CUT} when the element is not
   * whole yet, {@link STOP} when the sheet need not be read further.
   */
  private element(xml: string, open: number, close: number): number {
    const closing = xml.charCodeAt(open + 1) === SLASH;
    const nameStart = closing ? open + 2 : open + 1;
    let nameEnd = nameStart;
    while (nameEnd < close && !NAME_END.has(xml.charCodeAt(nameEnd))) nameEnd++;
    const local = localNameStart(xml, nameStart, nameEnd);
    const selfClosed = xml.charCodeAt(close - 1) === SLASH;
    if (nameEnd - local === 1 && xml.charCodeAt(local) === LETTER_C && !closing) {
      const attributes = xml.slice(nameEnd, selfClosed ? close - 1 : close);
      if (selfClosed) {
        this.cell(attributes, '');
        return close + 1;
      }
      const end = local === nameStart ? '</c>' : `</${xml.slice(nameStart, local)}c>`;
      const at = xml.indexOf(end, close + 1);
      if (at < 0) return CUT;
      this.cell(attributes, xml.slice(close + 1, at));
      return at + end.length;
    }
    if (xml.startsWith('!--', open + 1)) {
      const end = xml.indexOf('-->', open + 4);
      return end < 0 ? CUT : end + 3;
    }
    const name = xml.slice(local, nameEnd);
    if (name === 'row') {
      if (closing) return this.rowEnd() ? close + 1 : STOP;
      this.rowStart(xml.slice(nameEnd, close), selfClosed);
    } else if (name === 'mergeCell') {
      const range = parseMergeRange(attribute(xml.slice(nameEnd, close), 'ref') ?? '');
      if (range) this.table.merge(range);
    }
    return close + 1;
  }

  /** Starts a row; rows come in ascending order, as every writer lists them (a crafted sheet repeats one). */
  private rowStart(attributes: string, selfClosed: boolean): void {
    const r = Number(attribute(attributes, 'r'));
    if (Number.isInteger(r) && r > 0 && r <= this.line) {
      throw new ParseError(`Sheet "${this.table.sheet}" is damaged: it lists row ${r} after row ${this.line}.`);
    }
    this.line = Number.isInteger(r) && r > 0 ? r : this.line + 1;
    this.column = -1;
    this.held.clear();
    if (selfClosed) return;
    this.feeder.begin(this.line);
    this.inRow = true;
  }

  /** Ends a row; false to stop reading. */
  private rowEnd(): boolean {
    if (!this.inRow) return true;
    this.inRow = false;
    if (this.arrays.size > 0) this.unsavedArrayCells();
    return this.feeder.end();
  }

  private cell(attributes: string, inner: string): void {
    const r = attribute(attributes, 'r');
    const column = r === undefined ? this.column + 1 : columnOf(r);
    this.column = column;
    if (inner.includes('array')) this.arrayFormula(inner);
    if (column < 0 || !this.inRow || !this.feeder.wants(column)) return;
    let value = cellValue(attributes, inner, column, this.line, this.context);
    if (this.arrays.size > 0) {
      this.held.add(column);
      const type = attribute(attributes, 't');
      if (value === '' && type !== 'str' && type !== 'inlineStr' && this.inArray(column))
        value = unsavedFormulaCell(cellRef(column, this.line));
    }
    this.feeder.put(column, value);
  }

  /** Notes the range an array formula under the header spans, for the header's columns within it. */
  private arrayFormula(inner: string): void {
    const range = arrayRange(inner);
    const columns = this.table.headerColumns;
    if (!range) return;
    for (let i = firstAtOrAfter(columns, range.left); i < columns.length; i++) {
      const column = columns[i] ?? 0;
      if (column > range.right) break;
      this.arrays.set(column, Math.max(this.arrays.get(column) ?? 0, range.bottom));
    }
  }

  private inArray(column: number): boolean {
    return (this.arrays.get(column) ?? 0) >= this.line;
  }

  /** The cells of the row an array formula spans but the sheet left out: a formula with no saved value each. */
  private unsavedArrayCells(): void {
    for (const [column, bottom] of this.arrays) {
      if (bottom < this.line) this.arrays.delete(column);
      else if (!this.held.has(column) && this.feeder.wants(column)) {
        this.feeder.put(column, unsavedFormulaCell(cellRef(column, this.line)));
      }
    }
  }

  /** Ends the sheet: what was kept is read, and a last row left open by a cut file still counts. */
  end(): void {
    const xml = this.kept.take('', true);
    if (xml !== undefined && !this.scan(xml)) return;
    if (this.inRow) this.rowEnd();
  }
}
