import { type CellProblem, problemKind, REVIEW_LIMITS, type Review, type ReviewRow } from '@gdb/shared/uploads/review.schemas';
import { type StoredCorrection, WHOLE_ROW } from './corrections.repo.ts';
import { checkReviewRows, type ReviewBase } from './review-rows.ts';

/** A review as it is now: the file's rows, the corrections made, and each row's problems. */
export interface ReviewState {
  base: ReviewBase;
  /** The corrected cells of each row, by column. */
  edits: Map<number, Map<string, string | null>>;
  removed: Set<number>;
  /** Each row's problems now: the file's, or those of its corrected values. */
  problems: Map<number, CellProblem[]>;
}

/** The values of a row as corrected. */
export function valuesOf(state: Pick<ReviewState, 'base' | 'edits'>, index: number): (string | null)[] {
  const values = state.base.values[index] ?? [];
  const edits = state.edits.get(index);
  if (!edits) return values;
  return state.base.fields.map((f, c) => (edits.has(f) ? (edits.get(f) ?? null) : (values[c] ?? null)));
}

/** How rows are checked against the data model: `checkReviewRows`, or a test's wrapper of it. */
type RowCheck = typeof checkReviewRows;

/** Re-checks these rows as corrected; answers their problems (and keeps them in the state). */
export function recheck(
  state: ReviewState,
  indexes: Iterable<number>,
  check: RowCheck = checkReviewRows,
): Map<number, CellProblem[]> {
  const { base } = state;
  const rows = [...new Set(indexes)].map((index) => ({
    index,
    line: base.lines[index] ?? index + 1,
    values: valuesOf(state, index),
  }));
  const found = check(base, rows);
  for (const { index } of rows) {
    const problems = found.get(index);
    if (problems) state.problems.set(index, problems);
    else state.problems.delete(index);
  }
  return found;
}

/** The review of a file read with its stored corrections: only the corrected rows are checked again. */
export function reviewState(
  base: ReviewBase,
  corrections: readonly StoredCorrection[],
  check: RowCheck = checkReviewRows,
): ReviewState {
  const state: ReviewState = { base, edits: new Map(), removed: new Set(), problems: new Map(base.problems) };
  for (const c of corrections) {
    if (c.field === WHOLE_ROW) {
      if (c.removed) state.removed.add(c.rowIndex);
      continue;
    }
    const edits = state.edits.get(c.rowIndex) ?? new Map<string, string | null>();
    edits.set(c.field, c.value);
    state.edits.set(c.rowIndex, edits);
  }
  recheck(state, state.edits.keys(), check);
  return state;
}

/** A row as the review answers it. */
export function reviewRow(state: ReviewState, index: number): ReviewRow {
  return {
    index,
    line: state.base.lines[index] ?? index + 1,
    values: valuesOf(state, index),
    problems: state.problems.get(index) ?? [],
    removed: state.removed.has(index),
    corrected: [...(state.edits.get(index)?.keys() ?? [])],
  };
}

/** The label a problem kind has in the message filter: its column and its words without the values. */
function kindLabel(p: CellProblem): string {
  return `${p.field ?? 'row'}: ${problemKind(p.message)}`;
}

/** Whether a problem is one the filters keep. */
function problemMatches(p: CellProblem, field: string | undefined, message: string | undefined): boolean {
  if (field !== undefined && p.field !== field) return false;
  if (message === undefined) return true;
  const wanted = message.toLowerCase();
  return kindLabel(p) === message || `${p.field ?? ''}: ${p.message}`.toLowerCase().includes(wanted);
}

/** The rows with a problem now (removed ones not counted), in the file's order. */
export function problemIndexes(state: ReviewState): number[] {
  return [...state.problems.keys()].filter((i) => !state.removed.has(i)).sort((a, b) => a - b);
}

export interface ReviewFilters {
  offset: number;
  limit: number;
  all: boolean;
  field?: string | undefined;
  message?: string | undefined;
}

/** The rows the filters keep, in the file's order: those with a problem (or removed), or all. */
function keptIndexes(state: ReviewState, q: ReviewFilters): number[] {
  const filtered = q.field !== undefined || q.message !== undefined;
  const candidates = q.all
    ? state.base.values.map((_, i) => i)
    : [...new Set([...state.problems.keys(), ...state.removed])].sort((a, b) => a - b);
  if (!filtered) return candidates;
  return candidates.filter((i) => (state.problems.get(i) ?? []).some((p) => problemMatches(p, q.field, q.message)));
}

/** Counts of the problems by column and by kind, over the rows kept. */
function facets(state: ReviewState) {
  const byField = new Map<string, number>();
  const byKind = new Map<string, number>();
  for (const [index, problems] of state.problems) {
    if (state.removed.has(index)) continue;
    for (const p of problems) {
      if (p.field !== null) byField.set(p.field, (byField.get(p.field) ?? 0) + 1);
      const kind = kindLabel(p);
      byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    }
  }
  return {
    fieldProblems: state.base.fields.filter((f) => byField.has(f)).map((field) => ({ field, count: byField.get(field) ?? 0 })),
    messageKinds: [...byKind]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, REVIEW_LIMITS.messageKinds)
      .map(([kind, count]) => ({ kind, count })),
  };
}

/** One page of the review, with its counts. */
export function reviewPage(state: ReviewState, upload: { id: string; fileName: string | null }, q: ReviewFilters): Review {
  const kept = keptIndexes(state, q);
  return {
    uploadId: upload.id,
    fileName: upload.fileName,
    fields: state.base.fields,
    rowCount: state.base.values.length,
    problemRows: problemIndexes(state).length,
    removedRows: state.removed.size,
    total: kept.length,
    ...facets(state),
    rows: kept.slice(q.offset, q.offset + q.limit).map((i) => reviewRow(state, i)),
  };
}
