import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { REVIEW_MESSAGES } from '@gdb/shared/uploads/review.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict, invalid, notFound } from '../../platform/http/errors.ts';
import { sourceMappings } from './column-mappings.ts';
import { readFileRows } from './file-rows.ts';
import { mapRows } from './parsing/mapped-read.ts';
import { type ReviewBase, reviewBase } from './review-rows.ts';
import type { UploadsDeps } from './upload-deps.ts';
import { type UploadRow, uploadsRepo } from './uploads.repo.ts';

/** Files read for the review, kept by upload and data model version: the last few reviewed. */
const KEPT_BASES = 4;

/** An upload opened for its review: its row, its pipeline, its rows read and checked, and the kind of file it is. */
export interface Opened {
  row: UploadRow;
  pipeline: PipelineView;
  base: ReviewBase;
  format: string;
}

/**
 * Opens uploads for their review: refuses what the caller may not use, reads the file's rows with
 * no data model (as the component editor's test files are), renames its columns by the source's
 * mapping for its header, and checks them against it; what is
 * read is kept for the last few uploads reviewed.
 */
export function reviewOpener(ctx: AppContext, deps: UploadsDeps) {
  const uploads = uploadsRepo(ctx.db.kysely);
  const kept = new Map<string, Promise<{ base: ReviewBase; format: string }>>();

  async function baseOf(row: UploadRow, fileKey: string) {
    const source = (await deps.pipelines.stored(row.pipeline_id))?.dataSources.find((s) => s.dataSubKind === row.data_sub_kind);
    const model = source?.dataModel ? await deps.loadDataModel(source.dataModel) : null;
    const key = `${row.id}|${model?.key ?? ''}`;
    let read = kept.get(key);
    if (!read) {
      read = (async () => {
        const read = await readFileRows(deps.parser, row.original_filename ?? 'upload', await deps.files.get(fileKey));
        // The columns as the upload's check saw them: renamed by the source's mapping for the header.
        const file = mapRows(read, await sourceMappings(ctx, row.pipeline_id, row.data_sub_kind));
        return { base: reviewBase(file, model?.jsonSchema ?? null, model?.key), format: file.format };
      })();
      kept.set(key, read);
      read.catch(() => kept.delete(key));
      if (kept.size > KEPT_BASES) kept.delete(kept.keys().next().value ?? '');
    }
    return read;
  }

  /** The upload, refused unless the caller may use its pipeline and it is a checked uploaded file. */
  return async function open(auth: AuthContext, id: string): Promise<Opened> {
    const row = await uploads.byId(id);
    if (!row) throw notFound('Upload not found.');
    const pipeline = await deps.pipelines.byId(auth, row.pipeline_id);
    if (row.from !== 'source') throw invalid(REVIEW_MESSAGES.notSource);
    if (row.status === 'pending' || row.status === 'processing') throw conflict(REVIEW_MESSAGES.notChecked);
    if (!row.file_key) throw notFound(REVIEW_MESSAGES.noFile);
    const { base, format } = await baseOf(row, row.file_key).catch(() => {
      throw invalid(REVIEW_MESSAGES.notReviewable);
    });
    return { row, pipeline, base, format };
  };
}
