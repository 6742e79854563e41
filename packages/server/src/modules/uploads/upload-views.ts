import type { UploadView } from '@gdb/shared/uploads/upload.schemas';
import type { UploadRow } from './uploads.repo.ts';

export function toUploadView(r: UploadRow): UploadView {
  return {
    _id: r.id,
    pipelineId: r.pipeline_id,
    from: r.from,
    dataSubKind: r.data_sub_kind,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    originalFilename: r.original_filename,
    contentType: r.content_type,
    size: r.size,
    rowCount: r.row_count,
    importId: r.import_id,
    enabled: r.enabled,
    importedAt: r.imported_at?.toISOString() ?? null,
    importedBy: r.imported_by,
    sentFrom: r.sent_from,
    correctedFrom: r.corrected_from ?? null,
  };
}

/** An upload as a run reads it: what the screens see of it, and where its checked rows are stored. */
export interface RunUpload extends UploadView {
  rowsKey: string | null;
}

export function toRunUpload(r: UploadRow): RunUpload {
  return { ...toUploadView(r), rowsKey: r.rows_key };
}
