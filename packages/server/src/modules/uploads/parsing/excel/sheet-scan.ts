import { ParseError, type ParseLimits } from '../limits.ts';
import { booleanCell, type CellRead, cellRef, errorCell, isoDateCell, numberCell, unsavedFormulaCell } from './cell-value.ts';
import { parseMergeRange } from './merges.ts';
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

const TOKEN = /<(?:([\w.-]+):)?(row|c|mergeCell)\b([^>]*?)(\/?)>|<\/(?:[\w.-]+:)?row>/g;
const VALUE = /<(?:[\w.-]+:)?v(?:\s[^>]*)?>([^<]*)<\/(?:[\w.-]+:)?v>/;
const FORMULA = /<(?:[\w.-]+:)?f[\s/>]/;

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
export function cellValue(attributes: string, inner: string, ref: string, context: WorkbookContext): CellRead {
  const type = attribute(attributes, 't') ?? 'n';
  const text = cellText(inner);
  if (type === 'inlineStr') return ownString(checked(runsText(inner), ref, context));
  if (text === undefined || (text === '' && type !== 'str')) return FORMULA.test(inner) ? unsavedFormulaCell(ref) : '';
  switch (type) {
    case 's':
      return checked(context.sharedStrings[Number(text)] ?? '', ref, context);
    case 'str':
      return ownString(checked(decodeText(text), ref, context));
    case 'b':
      return booleanCell(text.trim() === '1' || text.trim() === 'true', ref);
    case 'e':
      return errorCell(decodeEntities(text), ref);
    case 'd':
      return isoDateCell(text, formatOf(attributes, context), ref);
    default:
      return numberCell(text.trim(), formatOf(attributes, context), context.date1904, ref);
  }
}

function formatOf(attributes: string, context: WorkbookContext): NumberFormat {
  const style = attribute(attributes, 's');
  return style === undefined ? GENERAL : (context.formats[Number(style)] ?? GENERAL);
}

function checked(text: string, ref: string, context: WorkbookContext): string {
  if (text.length > context.limits.maxCellChars) {
    throw new ParseError(`Cell ${ref} holds more than ${context.limits.maxCellChars} characters.`);
  }
  return text;
}

/** Reads a sheet's XML given piece by piece; `push` returns false once the sheet need not be read further. */
export class SheetScanner {
  private pending = '';
  private readonly feeder: RowFeeder;
  private line = 0;
  private column = -1;
  private inRow = false;
  private readonly maxPending: number;

  constructor(
    private readonly table: SheetTable,
    private readonly context: WorkbookContext,
  ) {
    this.feeder = new RowFeeder(table);
    this.maxPending = context.limits.maxCellChars * 8 + 1024 * 1024;
  }

  push(text: string): boolean {
    const xml = this.pending + text;
    TOKEN.lastIndex = 0;
    let consumed = 0;
    let keepFrom = -1;
    for (let match = TOKEN.exec(xml); match; match = TOKEN.exec(xml)) {
      const [whole, prefix, name, attributes = '', closed] = match;
      if (name === 'c' && !closed) {
        const close = prefix ? `</${prefix}:c>` : '</c>';
        const end = xml.indexOf(close, TOKEN.lastIndex);
        if (end < 0) {
          keepFrom = match.index;
          break;
        }
        this.cell(attributes, xml.slice(TOKEN.lastIndex, end));
        TOKEN.lastIndex = end + close.length;
      } else if (!this.token(name, attributes, Boolean(closed), whole)) {
        this.pending = '';
        return false;
      }
      consumed = TOKEN.lastIndex;
    }
    if (keepFrom < 0) {
      // What follows the last whole element may be the start of the next one, cut by the piece's end.
      const last = xml.lastIndexOf('<');
      keepFrom = last >= consumed ? last : xml.length;
    }
    this.pending = xml.slice(keepFrom);
    if (this.pending.length > this.maxPending) {
      throw new ParseError(
        `Sheet "${this.table.sheet}" holds a cell longer than ${this.context.limits.maxCellChars} characters.`,
      );
    }
    return true;
  }

  /** Handles a row start or end, a self-closed cell or a merged range; false to stop reading. */
  private token(name: string | undefined, attributes: string, closed: boolean, whole: string): boolean {
    if (name === 'row') {
      const r = Number(attribute(attributes, 'r'));
      this.line = Number.isInteger(r) && r > 0 ? r : this.line + 1;
      this.column = -1;
      if (closed) return true;
      this.feeder.begin(this.line);
      this.inRow = true;
      return true;
    }
    if (name === 'c') {
      this.cell(attributes, '');
      return true;
    }
    if (name === 'mergeCell') {
      const range = parseMergeRange(attribute(attributes, 'ref') ?? '');
      if (range) this.table.merge(range);
      return true;
    }
    if (whole.startsWith('</') && this.inRow) {
      this.inRow = false;
      return this.feeder.end();
    }
    return true;
  }

  private cell(attributes: string, inner: string): void {
    const r = attribute(attributes, 'r');
    const column = r === undefined ? this.column + 1 : columnOf(r);
    this.column = column;
    if (column < 0 || !this.inRow || !this.feeder.wants(column)) return;
    this.feeder.put(column, cellValue(attributes, inner, cellRef(column, this.line), this.context));
  }

  /** Ends the sheet; a last row left open by a cut file still counts. */
  end(): void {
    if (this.inRow) this.feeder.end();
  }
}
