// What every reader (CSV, XLSX, XLS, XML, JSON) makes of a file before the data model's types are
// applied: the header's field names, the rows with their values as the file holds them, each row's
// own number in the file, and notes for the upload's log. The values are converted by the field's
// type in one place (convert.ts), the same way whatever the format.

/** A spreadsheet cell, with what the sheet shows of it. `ref` is the cell's address, such as `C7`. */
export type SheetValue =
  /** A number: `value` as read, `shown` the text the sheet displays (`00123`, `15.5%`), `raw` the file's own digits. */
  | { kind: 'number'; value: number; shown: string; raw: string; ref: string }
  /** A date, date-time or time cell as ISO text (`2026-03-01`, `2026-03-01T14:30:00`, `14:30:00`) in the workbook's date system. */
  | { kind: 'date'; iso: string; shown: string; ref: string }
  | { kind: 'boolean'; value: boolean; shown: string; ref: string }
  /** An error cell (`#DIV/0!`), or a formula whose value was never saved: an error of its row. */
  | { kind: 'error'; problem: string; ref: string };

/** A sheet cell (an instance, so it is never taken for a JSON object). */
export class Cell {
  constructor(readonly value: SheetValue) {}
}

/** A JSON integer beyond 2^53 (±9,007,199,254,740,991), kept as the digits the file holds. */
export class BigJsonInteger {
  constructor(readonly digits: string) {}
}

/**
 * A value as read: text as written (CSV, XML and text cells; '' for an empty cell), a JSON value
 * (with {@link BigJsonInteger} for the integers a double cannot hold), or a sheet's {@link Cell}.
 * A field missing from a row (a short XML record, a JSON object without it) is simply absent.
 */
type ReadValue = unknown;

export type Row = Record<string, ReadValue>;

/** A line for the upload's log, such as the encoding used or the sheet read. */
export interface Note {
  level: 'info' | 'warn';
  message: string;
}

/** A problem of one row found while reading (a CSV record with too many fields). */
export interface RowProblem {
  /** The row's own number in the file (see {@link ReadTable.lines}). */
  line: number;
  message: string;
}

/** What a reader made of a file. */
export interface ReadTable {
  /** The header's field names, trimmed, in their order. */
  fields: string[];
  rows: Row[];
  /**
   * Each row's own number in the file, as its author sees it: the sheet's row number, the CSV line
   * its record starts on (the header being line 1), the JSON item's or XML record's position.
   */
  lines: number[];
  /** Problems of single rows found while reading; those rows are in `rows` too, as far as they could be read. */
  rowProblems: RowProblem[];
  notes: Note[];
}

/** What a reader may know of the data model, to find the header row, the sheet or the XML records. */
export interface ReadHints {
  /** The data model's field names (its properties), in order; empty without a data model. */
  fields: readonly string[];
  /** The fields it requires. */
  required: readonly string[];
  /**
   * The normalised names of the columns a stored column mapping gives a field (see mapped-read.ts):
   * a header holding one of them holds the data model's fields, spelt as that header spells them.
   */
  mapped?: ReadonlySet<string>;
  /**
   * A file's head only (read-head.ts): a sheet's header row is the first holding a name that
   * normalises to one of `names` (the first row with a value when there is none), and the sheet is
   * read no further than `rows` rows under it.
   */
  head?: { names: ReadonlySet<string>; rows: number };
}

export const NO_HINTS: ReadHints = { fields: [], required: [] };
