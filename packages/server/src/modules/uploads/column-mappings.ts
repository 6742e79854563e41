import { createHash } from 'node:crypto';
import type { ColumnMappingBody, ColumnMappingView, SourceMappings } from '@gdb/shared/uploads/column-mapping.schemas';
import {
  type ColumnChoice,
  headerSignature,
  MAPPING_MESSAGES,
  mappingIssue,
  matchFieldsOf,
} from '@gdb/shared/uploads/column-matcher';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, invalid } from '../../platform/http/errors.ts';
import { columnMappingsRepo } from './column-mappings.repo.ts';
import type { UploadsDeps } from './upload-deps.ts';

// A data source's column mappings: chosen in the wizard, stored per header, applied by the server
// when it checks a file of that header (parsing/mapped-read.ts), whoever sends it.

const hashOf = (signature: string) => createHash('sha256').update(signature).digest('hex');

const viewOf = (row: { columns: ColumnChoice[]; updated_at: Date }): ColumnMappingView => ({
  signature: headerSignature(row.columns.map((c) => c.column)),
  columns: row.columns,
  updatedAt: row.updated_at.toISOString(),
});

/** Reading and storing the column mappings of a pipeline's data sources. */
export function columnMappings(ctx: AppContext, deps: UploadsDeps) {
  const repo = columnMappingsRepo(ctx.db.kysely);

  /** The data source of a pipeline the caller may read (assigned to a user, badges checked). */
  async function readableSource(auth: AuthContext, pipelineId: string, dataSubKind: string) {
    const pipeline = await deps.pipelines.byId(auth, pipelineId);
    const source = pipeline.dataSources.find((s) => s.dataSubKind === dataSubKind);
    if (!source) throw invalid(`No data source ${dataSubKind} in pipeline`);
    return { pipeline, source };
  }

  return {
    /** A data source's fields to map columns to (its data model's), and its stored mappings, newest first. */
    async mappings(auth: AuthContext, pipelineId: string, dataSubKind: string): Promise<SourceMappings> {
      const { pipeline, source } = await readableSource(auth, pipelineId, dataSubKind);
      const model = source.dataModel ? await deps.loadDataModel(source.dataModel) : null;
      const mappings = (await repo.ofSource(pipeline._id, dataSubKind)).map(viewOf);
      return { fields: model ? matchFieldsOf(model.jsonSchema) : [], mappings };
    },

    /** Stores the mapping of a header for a data source; a field not in its data model or named twice is refused. */
    async saveMapping(auth: AuthContext, body: ColumnMappingBody): Promise<ColumnMappingView> {
      const { pipeline, source } = await readableSource(auth, body.pipelineId, body.dataSubKind);
      const model = source.dataModel ? await deps.loadDataModel(source.dataModel) : null;
      if (!model) throw badRequest(MAPPING_MESSAGES.noModel);
      const issue = mappingIssue(body.columns, matchFieldsOf(model.jsonSchema));
      if (issue) throw badRequest(issue);
      const signature = headerSignature(body.columns.map((c) => c.column));
      const row = await repo.put({
        pipelineId: pipeline._id,
        dataSubKind: body.dataSubKind,
        signatureHash: hashOf(signature),
        columns: body.columns,
        by: auth.userId,
      });
      return viewOf(row);
    },
  };
}

/** The stored mappings of a data source, as a file's check applies them (no caller: the upload was admitted). */
export async function sourceMappings(ctx: AppContext, pipelineId: string, dataSubKind: string): Promise<ColumnChoice[][]> {
  return (await columnMappingsRepo(ctx.db.kysely).ofSource(pipelineId, dataSubKind)).map((r) => r.columns);
}
