import { type CorrectionsAnswer, type CorrectionsBody, REVIEW_MESSAGES, type Review } from '@gdb/shared/uploads/review.schemas';
import type { SentFrom } from '@gdb/shared/uploads/upload.schemas';
import { counted } from '@gdb/shared/values/counted';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict, invalid } from '../../platform/http/errors.ts';
import { correctionsRepo, type StoredCorrection, WHOLE_ROW } from './corrections.repo.ts';
import { correctedFile, problemsFile, type ReviewFile } from './review-files.ts';
import { type Opened, reviewOpener } from './review-open.ts';
import {
  problemIndexes,
  type ReviewFilters,
  type ReviewState,
  recheck,
  reviewPage,
  reviewRow,
  reviewState,
  valuesOf,
} from './review-state.ts';
import type { UploadsDeps } from './upload-deps.ts';
import type { IncomingFile } from './upload-receive.ts';
import { uploadsRepo } from './uploads.repo.ts';

/** A change the review records in the activity (modules/activity): who corrected which cell of which upload. */
interface CorrectionRecord {
  kind: 'cell-corrected' | 'row-removed' | 'row-restored' | 'corrected-file';
  actor: { id: string; name: string };
  document: { kind: 'pipeline'; id: string; familyId: string; name: string; version: number };
  uploadId: string;
  pipelineId: string;
  details: Record<string, unknown>;
}

/** What the review takes beyond the uploads' dependencies: storing a corrected file, and the activity record. */
interface ReviewDeps extends UploadsDeps {
  receive: (auth: AuthContext, pipelineId: string, files: IncomingFile[], sentFrom: SentFrom) => Promise<string[]>;
  record: (records: CorrectionRecord[]) => Promise<void>;
}

/** The review of an upload's rows: read them with their problems, correct cells, remove rows, submit the corrected file. */
export function reviewService(ctx: AppContext, deps: ReviewDeps) {
  const uploads = uploadsRepo(ctx.db.kysely);
  const corrections = correctionsRepo(ctx.db.kysely);
  const open = reviewOpener(ctx, deps);

  const stateOf = async (o: Opened) => reviewState(o.base, await corrections.of(o.row.id));
  const recordOf = (auth: AuthContext, o: Opened) => ({
    actor: { id: auth.userId, name: auth.userName },
    document: {
      kind: 'pipeline' as const,
      id: o.pipeline._id,
      familyId: o.pipeline.familyId,
      name: o.pipeline.name,
      version: o.pipeline.version,
    },
    uploadId: o.row.id,
    pipelineId: o.pipeline._id,
  });

  return {
    /** A page of the review: the rows with a problem (or all), filtered by column and by problem. */
    async read(auth: AuthContext, id: string, filters: ReviewFilters): Promise<Review> {
      const o = await open(auth, id);
      return reviewPage(await stateOf(o), { id, fileName: o.row.original_filename }, filters);
    },

    /** Corrects cells and removes or keeps rows, then checks those rows again (only those); answers them. */
    async correct(auth: AuthContext, id: string, body: Required<CorrectionsBody>): Promise<CorrectionsAnswer> {
      const o = await open(auth, id);
      const state = await stateOf(o);
      const changed = applyCorrections(state, body);
      await corrections.put(id, auth.userId, changed.put);
      await corrections.drop(id, changed.drop);
      recheck(state, changed.rows);
      const who = recordOf(auth, o);
      await deps.record(changed.records.map((r) => ({ ...who, ...r })));
      if (changed.records.length > 0) {
        await deps.log([
          { level: 'info', message: batchLine(auth.userName, changed.counts), dataSubKind: o.row.data_sub_kind, uploadId: id },
        ]);
      }
      return {
        rows: [...changed.rows].sort((a, b) => a - b).map((i) => reviewRow(state, i)),
        problemRows: problemIndexes(state).length,
        removedRows: state.removed.size,
      };
    },

    /** Makes a new upload of the same data source from the file and its corrections, checked as any upload, linked to this one. */
    async submit(auth: AuthContext, id: string): Promise<{ uploadId: string }> {
      const o = await open(auth, id);
      const state = await stateOf(o);
      if (state.removed.size >= o.base.values.length) throw invalid(REVIEW_MESSAGES.nothingLeft);
      const file = correctedFile(state, o.format, o.row.original_filename);
      const incoming = {
        dataSubKind: o.row.data_sub_kind,
        filename: file.filename,
        mimetype: file.contentType,
        bytes: file.body,
      };
      const [made] = await deps.receive(auth, o.row.pipeline_id, [incoming], o.row.sent_from);
      if (!made) throw conflict('The corrected file was not stored.');
      await uploads.update(made, { corrected_from: id });
      // The corrected file takes the original's place in the next runs; the original is kept, switched off.
      await uploads.update(id, { enabled: false });
      const cells = [...state.edits.values()].reduce((n, m) => n + m.size, 0);
      const summary = `${counted(cells, 'cell')} corrected, ${counted(state.removed.size, 'row')} removed`;
      await deps.log([
        {
          level: 'info',
          message: `Corrected from ${o.row.original_filename ?? id} (${summary}).`,
          dataSubKind: o.row.data_sub_kind,
          uploadId: made,
        },
        {
          level: 'info',
          message: `Corrected file ${file.filename} submitted by ${auth.userName}.`,
          dataSubKind: o.row.data_sub_kind,
          uploadId: id,
        },
      ]);
      await deps.record([
        {
          ...recordOf(auth, o),
          kind: 'corrected-file',
          details: { correctedUpload: made, file: file.filename, cells, removed: state.removed.size },
        },
      ]);
      return { uploadId: made };
    },

    /** The rows with a problem as CSV (streamed) or XLSX, with a problem column. */
    async problems(auth: AuthContext, id: string, format: 'csv' | 'xlsx'): Promise<ReviewFile> {
      const o = await open(auth, id);
      return problemsFile(await stateOf(o), format, o.row.original_filename);
    },
  };
}

export type ReviewService = ReturnType<typeof reviewService>;

/** The upload's log line of a batch of corrections. */
function batchLine(userName: string, counts: { cells: number; removed: number; restored: number }): string {
  const parts = [`${counted(counts.cells, 'cell')} corrected`];
  if (counts.removed > 0) parts.push(`${counted(counts.removed, 'row')} removed`);
  if (counts.restored > 0) parts.push(`${counted(counts.restored, 'row')} kept again`);
  return `Review by ${userName}: ${parts.join(', ')} (see the Activity page).`;
}

type Change = Pick<CorrectionRecord, 'kind' | 'details'>;

/**
 * Applies a batch to the review state (refusing a row or column the file does not have): answers
 * what to store and forget, the rows to check again, and what the activity records. A cell set
 * back to its value in the file forgets its correction; a change to the value it has records nothing.
 */
function applyCorrections(state: ReviewState, body: Required<CorrectionsBody>) {
  const { fields, values, lines } = state.base;
  const rowOk = (i: number) => {
    if (i >= values.length) throw invalid(REVIEW_MESSAGES.unknownRow(i));
  };
  // What is stored of each cell (or row) at the end of the batch: a cell changed twice keeps its last.
  const final = new Map<string, StoredCorrection | { rowIndex: number; field: string }>();
  const put = (c: StoredCorrection) => final.set(`${c.rowIndex}\u0000${c.field}`, c);
  const drop = (c: { rowIndex: number; field: string }) => final.set(`${c.rowIndex}\u0000${c.field}`, c);
  const rows = new Set<number>();
  const records: Change[] = [];
  const counts = { cells: 0, removed: 0, restored: 0 };
  for (const c of body.changes) {
    rowOk(c.rowIndex);
    const column = fields.indexOf(c.field);
    if (column < 0) throw invalid(REVIEW_MESSAGES.unknownField(c.field));
    const to = c.value === '' ? null : c.value;
    const from = valuesOf(state, c.rowIndex)[column] ?? null;
    if (from === to) continue;
    const edits = state.edits.get(c.rowIndex) ?? new Map<string, string | null>();
    if ((values[c.rowIndex]?.[column] ?? null) === to) {
      edits.delete(c.field);
      drop({ rowIndex: c.rowIndex, field: c.field });
    } else {
      edits.set(c.field, to);
      put({ rowIndex: c.rowIndex, field: c.field, value: to, removed: false });
    }
    state.edits.set(c.rowIndex, edits);
    rows.add(c.rowIndex);
    counts.cells++;
    records.push({ kind: 'cell-corrected', details: { row: lines[c.rowIndex], rowIndex: c.rowIndex, field: c.field, from, to } });
  }
  for (const i of body.removals) {
    rowOk(i);
    if (state.removed.has(i)) continue;
    state.removed.add(i);
    put({ rowIndex: i, field: WHOLE_ROW, value: null, removed: true });
    rows.add(i);
    counts.removed++;
    records.push({ kind: 'row-removed', details: { row: lines[i], rowIndex: i, values: valuesOf(state, i) } });
  }
  for (const i of body.restores) {
    rowOk(i);
    if (!state.removed.delete(i)) continue;
    drop({ rowIndex: i, field: WHOLE_ROW });
    rows.add(i);
    counts.restored++;
    records.push({ kind: 'row-restored', details: { row: lines[i], rowIndex: i } });
  }
  const ends = [...final.values()];
  return {
    put: ends.filter((c): c is StoredCorrection => 'removed' in c),
    drop: ends.filter((c) => !('removed' in c)),
    rows,
    records,
    counts,
  };
}
