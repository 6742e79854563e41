import type { FileHead } from '@gdb/shared/uploads/column-mapping.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { invalid } from '../../platform/http/errors.ts';
import { sourceMappings } from './column-mappings.ts';
import { HEADS_ONLY_OF } from './parsing/read-head.ts';
import type { UploadsDeps } from './upload-deps.ts';
import { uploadSource } from './upload-receive.ts';

// A chosen file's header and first values, read by the server as its check would read it, for the
// wizard's column mapping dialog: the browser chooses the mapping, the server applies it. Nothing
// is stored.

/** Reading the heads of files chosen for a pipeline's data sources. */
export function fileHeads(ctx: AppContext, deps: UploadsDeps) {
  return {
    /**
     * A file's header and first values as its check reads them (a workbook's sheet and header row,
     * its cells as the check sees them), for a data source the caller may upload to; `file` is read
     * only once that is known. Refuses (422) a file its data source would not read, saying why.
     */
    async fileHead(
      auth: AuthContext,
      pipelineId: string,
      dataSubKind: string,
      file: () => Promise<Uint8Array>,
    ): Promise<FileHead> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      const source = uploadSource(pipeline, dataSubKind);
      const group = source.contentType;
      if (group !== 'csv' && group !== 'excel') throw invalid(HEADS_ONLY_OF);
      const bytes = await file();
      const model = source.dataModel ? await deps.loadDataModel(source.dataModel) : null;
      const head = await deps.parser.head({
        bytes,
        group,
        dataModel: model?.jsonSchema ?? null,
        limits: ctx.config.parseLimits,
        columnMappings: model ? await sourceMappings(ctx, pipeline._id, dataSubKind) : undefined,
      });
      if ('refused' in head) throw invalid(head.refused);
      return head;
    },
  };
}
