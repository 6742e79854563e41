import type {
  MassComputeAnswer,
  MassComputeEntry,
  MassComputeKind,
  MassLockAnswer,
  PipelineUpdateAnswer,
  PipelineUpdateData,
  PipelineUpdateReport,
} from '@gdb/shared/pipelines/pipeline-versions.schemas';
import { type LockAnswer, versionLabel } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict } from '../../platform/http/errors.ts';
import { newestPerFamily, type PipelineJobs, pipelineReports } from './pipeline-reports.ts';
import { bulkError, countriesOf, type PipelineScope, pipelineUpdater } from './pipeline-updates.ts';
import { pipelineVersionsRepo } from './pipeline-versions.repo.ts';
import { docOf } from './version-graph.ts';
import type { VersionedRow } from './versions.repo.ts';
import { versionsRepo } from './versions.repo.ts';
import type { VersionsService } from './versions.service.ts';

export type { PipelineJobs } from './pipeline-reports.ts';

const entryOf = (r: VersionedRow, report: PipelineUpdateReport | null): MassComputeEntry => ({
  doc: docOf('pipeline', r),
  isMaster: r.is_master === true,
  masterPipeline: typeof r.master_pipeline === 'string' ? r.master_pipeline : null,
  report,
});

/** Leaves out of these reports the documents the viewer's badges do not open (one check per kind for all of them). */
async function readableOnly(scope: PipelineScope, viewer: AuthContext, reports: PipelineUpdateReport[]) {
  const lists = (r: PipelineUpdateReport) => [r.data.schemas, r.data.components, r.data.sdk, r.data.pipelines];
  const all = new Map(reports.flatMap((r) => lists(r).flat()).map((e) => [e.doc._id, e]));
  const kept = new Set((await scope.versions.readableEntries(viewer, [...all.values()])).map((e) => e.doc._id));
  for (const r of reports) {
    const [schemas, components, sdk, pipelines] = lists(r).map((list) => list.filter((e) => kept.has(e.doc._id)));
    const deps = [schemas, components, sdk, r.isMaster ? [] : pipelines].flatMap((list) => list ?? []);
    r.needUpdate = deps.some((e) => e.needUpdate);
    r.data = {
      schemas: schemas ?? [],
      components: components ?? [],
      sdk: sdk ?? [],
      pipelines: pipelines ?? [],
      needUpdate: r.needUpdate,
    };
  }
}

/**
 * The lists of the update and lock screen, from each family's newest version: `update` those whose
 * dependencies have newer versions (a country once its master needs no update), `lock` the drafts
 * (a country once its master is locked).
 */
async function massList(scope: PipelineScope, kind: MassComputeKind, viewer: AuthContext): Promise<MassComputeAnswer> {
  const { db, repo, jobs } = scope;
  const newest = newestPerFamily(await pipelineVersionsRepo(db).newestOfEveryFamily());
  let listed: MassComputeEntry[];
  if (kind === 'lock') {
    const masters = new Map(
      (
        await repo.byIds('pipelines', [...new Set(newest.flatMap((r) => (r.master_pipeline ? [String(r.master_pipeline)] : [])))])
      ).map((m) => [m.id, m]),
    );
    const masterLocked = (r: VersionedRow) => !r.master_pipeline || masters.get(String(r.master_pipeline))?.v_locked === true;
    listed = newest.filter((r) => !r.v_locked && (r.is_master === true || masterLocked(r))).map((r) => entryOf(r, null));
  } else {
    const reports = await pipelineReports(db, repo, jobs, newest);
    const masterPending = (r: VersionedRow) => reports.get(String(r.master_pipeline))?.needUpdate === true;
    listed = newest
      .filter((r) => reports.get(r.id)?.needUpdate && (r.is_master === true || !masterPending(r)))
      .map((r) => entryOf(r, reports.get(r.id) ?? null));
    await readableOnly(scope, viewer, [...reports.values()]);
  }
  listed = await scope.versions.readableEntries(viewer, listed);
  return { pipelines: { masters: listed.filter((e) => e.isMaster), country: listed.filter((e) => !e.isMaster) }, errors: [] };
}

/**
 * The pipeline version calls (docs/product.md §18.1, §18.6): the engine's, with a master's country
 * pipelines (lock with `country`, compute, update with `updateCountries`), the jobs that follow an
 * update (`updateJobs`), and the bulk calls of the update and lock screen.
 */
export function pipelineVersionsService(ctx: AppContext, versions: VersionsService, jobs: PipelineJobs) {
  const db = ctx.db.kysely;
  const scope: PipelineScope = { db, repo: versionsRepo(db), versions, jobs };
  const load = (id: string) => versions.load('pipeline', id);
  const update = pipelineUpdater(scope);

  /** Refuses a country whose master is a draft, naming the master only to a caller who may read it. */
  async function assertMasterLocked(auth: AuthContext, row: VersionedRow): Promise<void> {
    const masterId = typeof row.master_pipeline === 'string' ? row.master_pipeline : null;
    const master = masterId && row.is_master !== true ? await scope.repo.byId('pipelines', masterId) : undefined;
    if (!master || master.v_locked) return;
    const doc = docOf('pipeline', master);
    const named = (await versions.openIds(auth, [doc])).has(master.id) ? ` ${doc.name} ${versionLabel(doc)}` : '';
    throw conflict(`Its master pipeline${named} is not locked: lock it first.`);
  }

  return {
    /** Locks a pipeline version; with `force` the drafts it depends on, with `country` (a master) its country pipelines too. */
    async lock(auth: AuthContext, id: string, force = false, country = false): Promise<LockAnswer> {
      const row = await load(id);
      return versions.lockVersions('pipeline', auth, [row, ...(country ? await countriesOf(db, row) : [])], force);
    },

    /**
     * The update report of a pipeline version, with its country pipelines (a master) and its jobs;
     * with a viewer, of a pipeline they may read, leaving out what their badges do not open.
     */
    async compute(id: string, viewer: AuthContext): Promise<PipelineUpdateReport> {
      const row = await versions.loadReadable(viewer, 'pipeline', id);
      const reports = await pipelineReports(db, scope.repo, jobs, [row]);
      await readableOnly(scope, viewer, [...reports.values()]);
      return reports.get(row.id) as PipelineUpdateReport;
    },

    update,

    massCompute: (kind: MassComputeKind, viewer: AuthContext) => massList(scope, kind, viewer),

    /**
     * Locks pipelines one after the other; each refusal is an error entry, the others go on. A
     * pipeline the caller may not read is refused under the id they gave, unnamed. A country whose
     * master is a draft is refused, with force too: the lock list offers it only once its master is
     * locked (docs/product.md §18.6).
     */
    async massLock(auth: AuthContext, ids: readonly string[], force = false): Promise<MassLockAnswer> {
      const answer: MassLockAnswer = { success: [], errors: [] };
      for (const id of ids) {
        let row: VersionedRow | undefined;
        try {
          row = await versions.loadReadable(auth, 'pipeline', id);
          await assertMasterLocked(auth, row);
          await versions.lockVersions('pipeline', auth, [row], force);
          answer.success.push({ name: String(row.name), version: row.version });
        } catch (error) {
          answer.errors.push(bulkError({ name: row ? String(row.name) : id, version: row?.version ?? null }, error));
        }
      }
      return answer;
    },

    /** Applies update payloads one after the other, each in its own transaction; each refusal is an error entry. */
    async massUpdate(auth: AuthContext, payloads: readonly PipelineUpdateData[]): Promise<PipelineUpdateAnswer> {
      const answer: PipelineUpdateAnswer = { success: [], jobs: [], errors: [] };
      for (const data of payloads) {
        try {
          const done = await update(auth, data);
          answer.success.push(...done.success);
          answer.jobs.push(...done.jobs);
          answer.errors.push(...done.errors);
        } catch (error) {
          const found = data.id ? await scope.repo.byId('pipelines', data.id) : undefined;
          const row = found && (await versions.openIds(auth, [docOf('pipeline', found)])).has(found.id) ? found : undefined;
          answer.errors.push(bulkError({ name: row ? String(row.name) : (data.id ?? ''), version: row?.version ?? null }, error));
        }
      }
      return answer;
    },
  };
}

export type PipelineVersionsService = ReturnType<typeof pipelineVersionsService>;
