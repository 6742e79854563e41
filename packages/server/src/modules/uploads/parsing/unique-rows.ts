// A data model that lists each row once (an array with `uniqueItems: true`) fails a run whose
// component takes the rows through it: the port's check refuses the repeated row. The upload's
// check finds those rows first, so the user sees them before running.
import { quoted } from './row-problem-text.ts';
import type { Row, RowProblem } from './table.ts';

/** True when the data model is a list of rows that holds each row once. */
export function wantsUniqueRows(dataModel: Record<string, unknown> | null): boolean {
  return dataModel?.type === 'array' && dataModel.uniqueItems === true;
}

/** A value as JSON text with its object keys sorted, so that rows equal as values give the same text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The rows that repeat an earlier row (as stored: a field with no value is null), each named by
 * its line, its value and the line it repeats; at most `max` listed, every one counted.
 */
export function repeatedRows(rows: readonly Row[], lines: readonly number[], max: number) {
  const first = new Map<string, number>();
  const problems: RowProblem[] = [];
  const indexes: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const text = canonical(rows[i]);
    const earlier = first.get(text);
    if (earlier === undefined) {
      first.set(text, i);
      continue;
    }
    indexes.push(i);
    if (problems.length >= max) continue;
    const line = lines[i] ?? i + 1;
    const message = `the row: ${quoted(rows[i])} repeats row ${lines[earlier] ?? earlier + 1}, and the data model holds each row once (Unique items)`;
    problems.push({ line, message });
  }
  return { problems, indexes };
}
