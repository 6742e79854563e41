import { hasAnyRole } from '@gdb/shared/auth/roles';
import type { ImportRecord, ListAllQuery, ScheduledJob } from '@gdb/shared/imports/import.schemas';
import { mayCreateJobKind } from '@gdb/shared/imports/import-rules';
import type { LiveLog } from '@gdb/shared/live/live.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import type { LogsService } from '../logs/logs.service.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import type { ReferenceService } from '../reference/reference.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { importsRepo, type JobRow, jobsRepo } from './imports.repo.ts';
import { namedImport, namedImports, namedJobs } from './record-names.ts';
import { toImportRecord, toScheduledJob } from './views.ts';

/** Import ids GET /imports/pipeline answers at most (the newest). */
const PIPELINE_IMPORTS_MAX = 200;

export interface ReadsDeps {
  ctx: AppContext;
  pipelines: PipelinesService;
  logs: LogsService;
  reference: ReferenceService;
  users: UsersService;
}

/** Jobs as the screens read them, each with its next waiting import, and those waiting imports. */
async function jobViews(deps: ReadsDeps, jobRows: JobRow[]): Promise<{ jobs: ScheduledJob[]; waiting: ImportRecord[] }> {
  const db = deps.ctx.db.kysely;
  const [rows, waiting] = await Promise.all([
    namedJobs(deps, jobRows),
    importsRepo(db)
      .pendingRecordsOfJobs(jobRows.map((r) => r.id))
      .then((w) => namedImports(deps, w)),
  ]);
  const jobs = rows.map((r) => {
    const next = waiting.find((w) => w.job_id === r.id && w.scheduled_at);
    const at = next?.scheduled_at ?? r.next_run_at;
    return toScheduledJob(r, at ? { id: next?.id ?? null, scheduledAt: at } : null);
  });
  return { jobs, waiting: waiting.map(toImportRecord) };
}

/**
 * The pipeline versions whose imports the caller's logbook lists, within `filtered` when given:
 * undefined (all) for managers, admins and super-admins; for a plain user every version of the
 * pipelines they may use (assigned, active, open to their badges), as past imports may be of older versions.
 */
async function withinOwn(deps: ReadsDeps, auth: AuthContext, filtered: readonly string[] | undefined) {
  if (hasAnyRole(auth.roles, ['manager', 'admin', 'super-admin'])) return filtered;
  const families = (await deps.pipelines.all(auth)).map((p) => p.familyId);
  // The map's keys are the families' version ids (and the family ids, which name no import).
  const own = families.length ? [...(await deps.pipelines.familiesOf(families)).keys()] : [];
  if (!filtered) return own;
  const wanted = new Set(filtered);
  return own.filter((id) => wanted.has(id));
}

/** An import the caller may read: of a pipeline it may use (managers also those of removed pipelines). */
async function readableImport(deps: ReadsDeps, auth: AuthContext, importId: string) {
  const row = await importsRepo(deps.ctx.db.kysely).byId(importId);
  if (!row) throw notFound('Import not found.');
  if (row.pipeline_id) await deps.pipelines.byId(auth, row.pipeline_id);
  else if (!hasAnyRole(auth.roles, ['manager', 'admin', 'super-admin'])) throw forbidden();
  return row;
}

/**
 * The pipeline's current import and the job the wizard edits (GET /imports/job): an active
 * schedule of a kind the caller may create, else the current import's job; `others` are the
 * pipeline's other active schedules, which the wizard shows read-only.
 */
async function currentJob(deps: ReadsDeps, auth: AuthContext, pipelineId: string) {
  const db = deps.ctx.db.kysely;
  const pipeline = await deps.pipelines.byId(auth, pipelineId);
  const current = await importsRepo(db).currentOf(pipeline._id);
  const { jobs: schedules } = await jobViews(deps, await jobsRepo(db).activeSchedulesOf(pipeline._id));
  let job = schedules.find((j) => mayCreateJobKind(auth.roles, j.jobKind)) ?? null;
  if (!job && current?.job_id && !schedules.some((j) => j._id === current.job_id)) {
    const row = await jobsRepo(db).viewById(current.job_id);
    job = row ? ((await jobViews(deps, [row])).jobs[0] ?? null) : null;
  }
  const others = schedules.filter((j) => j._id !== job?._id);
  return { imp: current ? toImportRecord(await namedImport(deps, current)) : null, job, others };
}

/** What the logbook, the jobs list and the wizard read about imports and jobs. */
export function importsReads(deps: ReadsDeps) {
  const db = deps.ctx.db.kysely;

  return {
    /** One logbook page with its filters (GET /imports/listAll); a plain user's, of their pipelines only. */
    async listAll(auth: AuthContext, query: ListAllQuery): Promise<{ records: ImportRecord[]; totalCount: number }> {
      const { brand, locale, datakind, productLine } = query;
      const byPipeline = brand || locale || datakind || productLine;
      const filtered = byPipeline ? await deps.pipelines.idsWhere({ brand, locale, datakind, productLine }) : undefined;
      const pipelineIds = await withinOwn(deps, auth, filtered);
      const { rows, total } = await importsRepo(db).page(query, new Date(), pipelineIds);
      return { records: (await namedImports(deps, rows)).map(toImportRecord), totalCount: total };
    },

    /** The logbook's filter lists (GET /imports/listAllFilters); a plain user's users are those who ran their pipelines. */
    async listAllFilters(auth: AuthContext) {
      const pipelineIds = await withinOwn(deps, auth, undefined);
      const [brands, locales, productLines, datakinds, users] = await Promise.all([
        deps.reference.brands(),
        deps.reference.locales(),
        deps.reference.productLines(),
        deps.reference.datakinds(),
        importsRepo(db)
          .userIds(pipelineIds)
          .then((ids) => deps.users.namesOf(ids)),
      ]);
      return { brands, locales, productLines, datakinds, users: users.map((u) => ({ _id: u.id, firstName: u.firstName })) };
    },

    /** Repeating and one-time jobs of the pipelines the caller may read, and their waiting imports. */
    async listScheduled(auth: AuthContext) {
      const readable = new Set((await deps.pipelines.all(auth)).map((p) => p._id));
      const rows = (await jobsRepo(db).activeSchedules()).filter((r) => !r.pipeline_id || readable.has(r.pipeline_id));
      const { jobs, waiting } = await jobViews(deps, rows);
      return {
        repeatable: jobs.filter((j) => j.jobKind === 'repeat'),
        scheduled: jobs.filter((j) => j.jobKind === 'scheduled'),
        imports: waiting,
      };
    },

    /** The active scheduled and repeat jobs of these pipeline versions, whoever asks (the update report of a pipeline version). */
    async schedulesOf(pipelineIds: readonly string[]): Promise<{ repeatable: ScheduledJob[]; scheduled: ScheduledJob[] }> {
      const { jobs } = await jobViews(deps, await jobsRepo(db).activeSchedulesOfMany(pipelineIds));
      return { repeatable: jobs.filter((j) => j.jobKind === 'repeat'), scheduled: jobs.filter((j) => j.jobKind === 'scheduled') };
    },

    currentJob: (auth: AuthContext, pipelineId: string) => currentJob(deps, auth, pipelineId),

    /** The newest import ids of a pipeline (GET /imports/pipeline). */
    async pipelineImports(auth: AuthContext, pipelineId: string): Promise<string[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      return importsRepo(db).idsOf(pipeline._id, PIPELINE_IMPORTS_MAX);
    },

    /** One import record the caller may read. */
    async record(auth: AuthContext, importId: string): Promise<ImportRecord> {
      await readableImport(deps, auth, importId);
      const row = await importsRepo(db).recordById(importId);
      if (!row) throw notFound('Import not found.');
      return toImportRecord(await namedImport(deps, row));
    },

    /** The logs of an import, read like its pipeline (GET /logs/jobs). */
    async importLogs(auth: AuthContext, importId: string): Promise<LiveLog[]> {
      await readableImport(deps, auth, importId);
      return deps.logs.forImport(importId);
    },
  };
}
