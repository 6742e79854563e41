import type { JobKind } from '@gdb/shared/imports/import.schemas';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { ImportRow, JobRow } from './imports.repo.ts';
import type { ImportRecordRow, JobViewRow } from './views.ts';

/** The services that name the pipelines and users imports and jobs point to. */
export interface NameSources {
  pipelines: Pick<PipelinesService, 'namesOf'>;
  users: Pick<UsersService, 'namesOf'>;
}

const present = (ids: readonly (string | null)[]): string[] => ids.flatMap((id) => (id ? [id] : []));

/** The names of the pipelines and users these rows point to: one query each, whatever the number of rows. */
async function namesFor(src: NameSources, pipelineIds: readonly (string | null)[], userIds: readonly (string | null)[]) {
  const [pipelines, users] = await Promise.all([
    src.pipelines.namesOf(present(pipelineIds)),
    src.users.namesOf(present(userIds)),
  ]);
  return { pipelines, users: new Map(users.map((u) => [u.id, u])) };
}

type ImportWithKind = ImportRow & { job_kind: JobKind | null };
type Names = Awaited<ReturnType<typeof namesFor>>;

function nameImport(r: ImportWithKind, names: Names): ImportRecordRow {
  const pipeline = r.pipeline_id ? names.pipelines.get(r.pipeline_id) : undefined;
  return {
    ...r,
    pipeline_name: pipeline?.name ?? null,
    pipeline_version: pipeline?.version ?? null,
    user_first_name: (r.user_id && names.users.get(r.user_id)?.firstName) ?? null,
  };
}

/** Import rows with the name and version of their pipeline and the first name of their user. */
export async function namedImports(src: NameSources, rows: readonly ImportWithKind[]): Promise<ImportRecordRow[]> {
  const names = await namesFor(
    src,
    rows.map((r) => r.pipeline_id),
    rows.map((r) => r.user_id),
  );
  return rows.map((r) => nameImport(r, names));
}

/** One import row with its pipeline's and user's names. */
export async function namedImport(src: NameSources, row: ImportWithKind): Promise<ImportRecordRow> {
  return nameImport(row, await namesFor(src, [row.pipeline_id], [row.user_id]));
}

/** Job rows with the name and version of their pipeline and the user name of who scheduled them. */
export async function namedJobs(src: NameSources, rows: readonly JobRow[]): Promise<JobViewRow[]> {
  const names = await namesFor(
    src,
    rows.map((r) => r.pipeline_id),
    rows.map((r) => r.scheduled_by),
  );
  return rows.map((r) => {
    const pipeline = r.pipeline_id ? names.pipelines.get(r.pipeline_id) : undefined;
    return {
      ...r,
      pipeline_name: pipeline?.name ?? null,
      pipeline_version: pipeline?.version ?? null,
      scheduled_by_name: (r.scheduled_by && names.users.get(r.scheduled_by)?.userName) ?? null,
    };
  });
}
