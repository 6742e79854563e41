import { versionLabel } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { conflict, notFound } from '../../platform/http/errors.ts';
import { isUuid } from '../../platform/ids.ts';
import type { VersionsService } from '../versions/versions.service.ts';

/** What deleting a pipeline asks of the version engine: its write check, who points at a version, and a draft's delete. */
export type PipelineVersions = Pick<VersionsService, 'load' | 'assertCanWrite' | 'usedBy' | 'remove'>;

/** What deleting a pipeline reads of the pipelines: whether it exists and is a master, and its country pipelines. */
interface PipelineReads {
  byId(id: string): Promise<{ id: string; is_master: boolean } | undefined>;
  countriesOf(masterId: string): Promise<{ id: string }[]>;
}

/**
 * DELETE /pipelines: deletes a pipeline version and, for a master, every country pipeline whose
 * master it is ('Delete pipeline [..] and all its child pipeline'). Each must pass the version
 * engine's delete check (a draft, not read-only, the badges of the caller on it and its folders:
 * 403) and be pointed at by nothing else (409); all are checked before any goes, country pipelines
 * first. Their uploads go with them; imports and jobs stay, naming no pipeline.
 */
export function pipelineDelete(reads: PipelineReads, versions: PipelineVersions) {
  return async (auth: AuthContext, id: string): Promise<{ _id: string; deleted: string[] }> => {
    const pipeline = isUuid(id) ? await reads.byId(id) : undefined;
    if (!pipeline) throw notFound('Pipeline not found.');
    const countries = pipeline.is_master ? (await reads.countriesOf(id)).map((c) => c.id) : [];
    const going = [...countries, id];
    const ids = new Set(going);
    for (const each of going) {
      await versions.assertCanWrite(auth, 'pipeline', await versions.load('pipeline', each), 'delete');
      const users = (await versions.usedBy('pipeline', each)).filter((u) => !ids.has(u._id));
      if (users.length > 0) {
        throw conflict(`This pipeline is used by ${users.map((u) => `${u.name} ${versionLabel(u)}`).join(', ')}.`);
      }
    }
    for (const each of going) await versions.remove('pipeline', auth, each);
    return { _id: id, deleted: going };
  };
}
