import { REVIEW_LIMITS, type ReviewRow } from '@gdb/shared/uploads/review.schemas';

/** A cell change waiting to be sent. */
export interface CellChange {
  rowIndex: number;
  field: string;
  value: string | null;
}

/** The changes a find-and-replace makes in one column of the rows shown: each value holding `find`, every occurrence replaced. */
export function replaceChanges(
  rows: readonly ReviewRow[],
  fields: readonly string[],
  field: string,
  find: string,
  by: string,
): CellChange[] {
  const column = fields.indexOf(field);
  if (column < 0 || find === '') return [];
  const changes: CellChange[] = [];
  for (const row of rows) {
    const value = row.values[column];
    if (row.removed || value == null || !value.includes(find)) continue;
    changes.push({ rowIndex: row.index, field, value: value.split(find).join(by) });
  }
  return changes;
}

/** The rows with these cells changed as the grid shows them until the server answers. */
export function withChanges(rows: readonly ReviewRow[], fields: readonly string[], changes: readonly CellChange[]): ReviewRow[] {
  if (changes.length === 0) return rows as ReviewRow[];
  const byRow = new Map<number, CellChange[]>();
  for (const c of changes) byRow.set(c.rowIndex, [...(byRow.get(c.rowIndex) ?? []), c]);
  return rows.map((row) => {
    const mine = byRow.get(row.index);
    if (!mine) return row;
    const values = [...row.values];
    const corrected = new Set(row.corrected);
    for (const c of mine) {
      values[fields.indexOf(c.field)] = c.value;
      corrected.add(c.field);
    }
    return { ...row, values, corrected: [...corrected] };
  });
}

/** The rows with the server's answer in place of those it names (the values typed since kept). */
export function withAnswer(
  rows: readonly ReviewRow[],
  answered: readonly ReviewRow[],
  typedSince: ReadonlySet<number>,
): ReviewRow[] {
  const byIndex = new Map(answered.map((r) => [r.index, r]));
  return rows.map((row) => {
    const fresh = byIndex.get(row.index);
    if (!fresh) return row;
    return typedSince.has(row.index) ? { ...row, problems: fresh.problems, removed: fresh.removed } : fresh;
  });
}

/** The pending changes split into calls the server takes (a batch at most each). */
export function batches<T>(items: readonly T[], size: number = REVIEW_LIMITS.batchMax): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The problem of a cell, as its mark says it; undefined for a cell without one. */
export function cellMessage(row: ReviewRow, field: string): string | undefined {
  const messages = row.problems.filter((p) => p.field === field).map((p) => p.message);
  return messages.length > 0 ? messages.join('; ') : undefined;
}

/** The problems of the whole row (none of its cells), as its mark says them. */
export function rowMessage(row: ReviewRow): string | undefined {
  const messages = row.problems.filter((p) => p.field === null).map((p) => p.message);
  return messages.length > 0 ? messages.join('; ') : undefined;
}
