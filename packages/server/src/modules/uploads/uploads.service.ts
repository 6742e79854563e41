import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/tables.ts';
import { newId } from '../../platform/ids.ts';
import { columnMappings } from './column-mappings.ts';
import { fileHeads } from './file-head.ts';
import { readFileRows } from './file-rows.ts';
import { sweepFiles } from './file-sweep.ts';
import { uploadChecks } from './upload-checks.ts';
import type { UploadsDeps } from './upload-deps.ts';
import { uploadChoices, uploadReads } from './upload-reads.ts';
import { uploadReceiving } from './upload-receive.ts';
import { uploadsRepo } from './uploads.repo.ts';

export type { StoredFile } from './upload-receive.ts';
export type { RunUpload } from './upload-views.ts';

/** A file an import wrote for one of its data sinks, stored in the file store. */
interface OutputFile {
  pipelineId: string;
  dataSinkName: string;
  fileName: string;
  contentType: string;
  size: number;
  fileKey: string;
  rowCount: number;
  importId: string;
  createdBy: string | null;
}

/** The files an import writes: recorded while it runs, offered once it ended done. */
function outputFiles(ctx: AppContext) {
  return {
    /**
     * Offers an import's output files once it ended done (valid), or withdraws those of an import
     * that did not (invalid): until then they are being written, and no export offers them.
     */
    settleOutputs: (trx: Kysely<Database>, importId: string, done: boolean) =>
      uploadsRepo(trx).settleOutputs(importId, done ? 'valid' : 'invalid'),
    /**
     * Marks the source uploads an import took, once it ended done, as imported by it (date and
     * import) and switches them off: the next run takes only newer uploads, or these switched on again.
     */
    markImported: (trx: Kysely<Database>, importId: string, uploadIds: readonly string[]) =>
      uploadsRepo(trx).markImported(importId, uploadIds),
    /** Records a file an import wrote, offered once the import ends done (see `settleOutputs`); answers its id. */
    async storeOutput(file: OutputFile): Promise<string> {
      const [row] = await uploadsRepo(ctx.db.kysely).insert([
        {
          id: newId(),
          pipeline_id: file.pipelineId,
          data_sub_kind: file.dataSinkName,
          from: 'destination',
          status: 'processing',
          original_filename: file.fileName,
          content_type: file.contentType,
          size: file.size,
          file_key: file.fileKey,
          row_count: file.rowCount,
          import_id: file.importId,
          created_by: file.createdBy,
          rows_key: null,
          claimed_at: null,
        },
      ]);
      if (!row) throw new Error('The output file was not recorded.');
      return row.id;
    },
  };
}

/** Uploads: files received for a pipeline's sources and checked in the background, and the files its imports write. */
export function uploadsService(ctx: AppContext, deps: UploadsDeps) {
  const repo = uploadsRepo(ctx.db.kysely);
  const checks = uploadChecks(ctx, deps);
  return {
    ...outputFiles(ctx),
    /** Deletes the stored files no upload references, stored longer ago than the sweep's grace; answers how many. */
    sweepFiles: (now = new Date()) =>
      sweepFiles(ctx.db.kysely, deps.files, new Date(now.getTime() - ctx.config.fileSweepGraceMs)),
    ...uploadReceiving(ctx, deps, checks),
    /** A file's rows read with no data model, in a parse worker within the upload limits (the component editor's test files). */
    readFileRows: (fileName: string, bytes: Uint8Array) => readFileRows(deps.parser, fileName, bytes),
    ...uploadReads(repo, deps),
    ...uploadChoices(repo, deps),
    /**
     * The data sources with uploads switched on that no run has imported yet, oldest last upload
     * first, with who stored them (a restart asks runs for those of endpoints and listeners).
     */
    waitingSources: async () =>
      (await repo.waitingSources()).map((r) => ({
        pipelineId: r.pipeline_id,
        dataSubKind: r.data_sub_kind,
        createdBy: r.created_by,
      })),
    ...columnMappings(ctx, deps),
    ...fileHeads(ctx, deps),
    resume: checks.resume,
    watch: checks.watch,
    unwatch: checks.unwatch,
    settled: checks.settled,
    /** Resolves when a check of this instance next ends, after `ms` at the latest, or when the signal aborts. */
    checkEnded: checks.nextEnd,
  };
}

export type UploadsService = ReturnType<typeof uploadsService>;

/**
 * An example file read by the upload readers, for inferring a data model from it (docs/product.md
 * §18.2); throws an Error saying why a file cannot be read.
 */
export { readExample } from './parsing/read-example.ts';
