import { Ajv } from 'ajv';
import { addDataModelFormats } from '../../../platform/data-model-formats.ts';
import { linearRegExp } from '../../../platform/linear-regexp.ts';
import { convertRows, fieldTypesOf } from './convert.ts';
import { keptCheck } from './kept-checks.ts';
import { rowProblemText } from './row-problem-text.ts';
import { rowSchemaOf } from './row-schema.ts';
import type { Row, RowProblem } from './table.ts';
import { repeatedRows, wantsUniqueRows } from './unique-rows.ts';

export interface Problem {
  /** The row's own number in the file (see ReadTable.lines), or null for a problem with the whole file. */
  row: number | null;
  message: string;
}

export interface CheckResult {
  invalidRows: number;
  problems: Problem[];
  problemCount: number;
}

/** Rows as a reader read them, with their own numbers in the file and the problems found while reading. */
export interface RowsRead {
  rows: readonly Row[];
  lines: readonly number[];
  rowProblems: readonly RowProblem[];
}

/** A problem's message as the upload's log shows it: `Row {n}, …` for a field's, `Row {n}: …` for others. */
function rowMessage(line: number, message: string): string {
  if (/^Row \d+/.test(message)) return message;
  return /^[^:]+: /.test(message) ? `Row ${line}, ${message}` : `Row ${line}: ${message}`;
}

/** A compiled check of one row against the data model. */
function rowValidator(dataModel: Record<string, unknown>) {
  // Patterns run in linear time; a referenced definition compiles once, not once per use.
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    coerceTypes: false,
    strict: false,
    useDefaults: false,
    inlineRefs: false,
    code: { regExp: linearRegExp },
  });
  addDataModelFormats(ajv);
  return ajv.compile(rowSchemaOf(dataModel));
}

/** The rows checked: their values converted by their field's type, and every problem in the order of the rows. */
export interface CheckedRows extends CheckResult {
  /** The rows as stored: a field with no value (an empty cell) is null. */
  rows: Row[];
}

/**
 * Converts every row's values by their field's type (convert.ts) and checks the rows against the
 * data model (when there is one). Problems found while reading, while converting and while
 * checking are listed by row, each row numbered as the file numbers it; a row that repeats an
 * earlier one is a problem where the data model holds each row once. The check compiled is kept
 * by `modelKey` (kept-checks.ts).
 */
export function checkRows(
  read: RowsRead,
  dataModel: Record<string, unknown> | null,
  maxProblems: number,
  modelKey?: string,
): CheckedRows {
  const { rows, stored, problems: converting, invalid } = convertRows(read.rows, read.lines, fieldTypesOf(dataModel));
  const indexOfLine = new Map<number, number>();
  for (let i = 0; i < read.lines.length; i++) indexOfLine.set(read.lines[i] as number, i);
  for (const p of read.rowProblems) invalid.add(indexOfLine.get(p.line) ?? -1 - p.line);
  // Each list is in the order of the rows: the first problems of all are among the first of each.
  const checking: RowProblem[] = [];
  let checkingCount = 0;
  if (dataModel) {
    const validate = keptCheck(modelKey, 'rows', () => rowValidator(dataModel));
    for (let i = 0; i < rows.length; i++) {
      if (validate(rows[i])) continue;
      invalid.add(i);
      const line = read.lines[i] ?? i + 1;
      for (const e of validate.errors ?? []) {
        checkingCount++;
        if (checking.length < maxProblems) checking.push({ line, message: rowProblemText(e) });
      }
    }
  }
  const repeated = wantsUniqueRows(dataModel) ? repeatedRows(stored, read.lines, maxProblems) : { problems: [], indexes: [] };
  for (const i of repeated.indexes) invalid.add(i);
  const first = [
    ...read.rowProblems.slice(0, maxProblems),
    ...converting.slice(0, maxProblems),
    ...checking,
    ...repeated.problems,
  ];
  // A stable sort: a row's problems stay in the order they were found.
  first.sort((a, b) => a.line - b.line);
  const problems = first.slice(0, maxProblems).map((p) => ({ row: p.line, message: rowMessage(p.line, p.message) }));
  const problemCount = read.rowProblems.length + converting.length + checkingCount + repeated.indexes.length;
  return { rows: stored, invalidRows: invalid.size, problems, problemCount };
}
