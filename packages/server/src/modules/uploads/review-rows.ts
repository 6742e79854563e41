import type { CellProblem } from '@gdb/shared/uploads/review.schemas';
import { checkRows } from './parsing/check-rows.ts';
import type { Row } from './parsing/table.ts';

/** A file's rows as the review reads them: texts by column, and each row's problems as the file was checked. */
export interface ReviewBase {
  fields: string[];
  /** The values as the file holds them, by row then column; null for no value. */
  values: (string | null)[][];
  /** Each row's number as the problems name it (the header being row 1). */
  lines: number[];
  /** The problems of each row of the file as it is (absent: none). */
  problems: Map<number, CellProblem[]>;
  dataModel: Record<string, unknown> | null;
  modelKey: string | undefined;
}

/** A cell as the review shows it: a text, or null for no value. */
function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** A row object of texts, to check as the upload check does (a field named __proto__ stays an own field). */
function rowOf(fields: readonly string[], values: readonly (string | null)[]): Row {
  const row: Row = {};
  fields.forEach((name, c) => {
    Object.defineProperty(row, name, { value: values[c] ?? null, enumerable: true, writable: true, configurable: true });
  });
  return row;
}

/** A problem's message split into its column (one of `fields`) and its words; null for a problem of the whole row. */
function cellProblem(fields: readonly string[], line: number, message: string): CellProblem {
  const prefix = `Row ${line}`;
  let rest = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  if (rest.startsWith(', ') || rest.startsWith(': ')) rest = rest.slice(2);
  let field: string | null = null;
  for (const f of fields) if (rest.startsWith(`${f}: `) && (field === null || f.length > field.length)) field = f;
  return field === null ? { field: null, message: rest } : { field, message: rest.slice(field.length + 2) };
}

/** The rows to check: each one's position in the file, its number and its values. */
interface RowToCheck {
  index: number;
  line: number;
  values: readonly (string | null)[];
}

/**
 * Checks rows against the data model with the check the upload's parse uses (the same conversion
 * by field type, the same compiled check kept by the model's key, linear-time patterns): answers the
 * problems of each row that has any. Only these rows are checked: a row repeating one left out is not seen.
 */
export function checkReviewRows(
  model: Pick<ReviewBase, 'fields' | 'dataModel' | 'modelKey'>,
  rows: readonly RowToCheck[],
): Map<number, CellProblem[]> {
  const found = new Map<number, CellProblem[]>();
  if (rows.length === 0) return found;
  const indexOfLine = new Map(rows.map((r) => [r.line, r.index]));
  const checked = checkRows(
    { rows: rows.map((r) => rowOf(model.fields, r.values)), lines: rows.map((r) => r.line), rowProblems: [] },
    model.dataModel,
    Number.MAX_SAFE_INTEGER,
    model.modelKey,
  );
  for (const p of checked.problems) {
    const index = p.row === null ? undefined : indexOfLine.get(p.row);
    if (index === undefined || p.row === null) continue;
    const list = found.get(index) ?? [];
    list.push(cellProblem(model.fields, p.row, p.message));
    found.set(index, list);
  }
  return found;
}

/** The review's base of a file read: its texts, and the problems of every row. */
export function reviewBase(
  read: { fields: string[]; rows: Record<string, unknown>[]; format: string },
  dataModel: Record<string, unknown> | null,
  modelKey: string | undefined,
): ReviewBase {
  const { fields } = read;
  // The header is row 1 of a table; a JSON file's items are numbered from 1.
  const first = read.format === 'json' ? 1 : 2;
  const values = read.rows.map((r) => fields.map((f) => textOf(Object.hasOwn(r, f) ? r[f] : null)));
  const lines = values.map((_, i) => i + first);
  const base = { fields, values, lines, dataModel, modelKey, problems: new Map<number, CellProblem[]>() };
  base.problems = checkReviewRows(
    base,
    values.map((v, index) => ({ index, line: lines[index] as number, values: v })),
  );
  return base;
}
