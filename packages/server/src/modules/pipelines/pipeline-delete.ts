import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { Executor } from '../../platform/db/transaction.ts';
import { notFound } from '../../platform/http/errors.ts';
import { isUuid } from '../../platform/ids.ts';
import type { VersionsService } from '../versions/versions.service.ts';

/** What deleting a pipeline asks of the version engine: the checks and the delete of drafts together. */
export type PipelineVersions = Pick<VersionsService, 'removeDrafts'>;

/** What deleting pipelines asks of the imports and jobs (wired at start-up: the imports module reads the pipelines). */
export interface PipelineImports {
  /** 409 while an import of one of these pipelines runs or waits to run. */
  assertIdle(pipelineIds: readonly string[]): Promise<void>;
  /** In the deleting transaction: the same check under their import locks, then their active jobs and waiting imports go. */
  release(trx: Executor, pipelineIds: readonly string[]): Promise<void>;
}

/** Without the imports wired (a service built on its own), there is nothing to wait for or release. */
const noImports: PipelineImports = { assertIdle: async () => {}, release: async () => {} };

/** What deleting a pipeline reads of the pipelines: whether it exists and is a master, and its country pipelines. */
interface PipelineReads {
  byId(id: string): Promise<{ id: string; is_master: boolean } | undefined>;
  countriesOf(masterId: string): Promise<{ id: string }[]>;
}

/**
 * DELETE /pipelines: deletes a pipeline version and, for a master, every country pipeline whose
 * master it is ('Delete pipeline [..] and all its child pipeline'). Each must pass the version
 * engine's delete check (a draft, not read-only, the badges of the caller on it and its folders:
 * 403) and be pointed at by nothing else (409); none may have an import running or waiting to run
 * (409). All go in one transaction, country pipelines first, with their uploads (their stored files
 * left to the file sweep), their active jobs and the imports waiting for a later run; finished
 * imports and jobs stay, naming no pipeline (docs/decisions.md).
 */
export function pipelineDelete(reads: PipelineReads, versions: PipelineVersions, imports: PipelineImports = noImports) {
  return async (auth: AuthContext, id: string): Promise<{ _id: string; deleted: string[] }> => {
    const pipeline = isUuid(id) ? await reads.byId(id) : undefined;
    if (!pipeline) throw notFound('Pipeline not found.');
    const countries = pipeline.is_master ? (await reads.countriesOf(id)).map((c) => c.id) : [];
    const going = [...countries, id];
    await imports.assertIdle(going);
    await versions.removeDrafts('pipeline', auth, going, (trx) => imports.release(trx, going));
    return { _id: id, deleted: going };
  };
}
