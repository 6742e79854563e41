import type { ScheduledJob } from '@gdb/shared/imports/import.schemas';
import type { PipelineUpdateReport } from '@gdb/shared/pipelines/pipeline-versions.schemas';
import type { UpdateEntry, VersionKind } from '@gdb/shared/versions/versions.schemas';
import type { Executor } from '../../platform/db/transaction.ts';
import { pipelineVersionsRepo } from './pipeline-versions.repo.ts';
import { dependencyForest, docOf, entryOf, type Node, newestOfNodes } from './version-graph.ts';
import type { VersionedRow, VersionsRepo } from './versions.repo.ts';

/** What the pipeline version calls need of the jobs (the imports module's service has it). */
export interface PipelineJobs {
  /** The active scheduled and repeat jobs of these pipeline versions. */
  schedulesOf(pipelineIds: readonly string[]): Promise<{ repeatable: ScheduledJob[]; scheduled: ScheduledJob[] }>;
  /** Hands a version's active scheduled and repeat jobs to another version, in the transaction given; answers their ids. */
  moveSchedules(fromPipelineId: string, toPipelineId: string, k: Executor): Promise<string[]>;
}

const byName = (a: VersionedRow, b: VersionedRow) =>
  String(a.name).localeCompare(String(b.name), undefined, { sensitivity: 'base' }) || a.version - b.version;

/** Per family, the newest of these versions, by name. */
export function newestPerFamily(rows: readonly VersionedRow[]): VersionedRow[] {
  const newest = new Map<string, VersionedRow>();
  for (const r of rows) {
    const current = newest.get(r.family_id);
    if (!current || r.version > current.version) newest.set(r.family_id, r);
  }
  return [...newest.values()].sort(byName);
}

/** What a version depends on at any depth, nearest first (the order of the engine's report). */
function reachable(nodes: ReadonlyMap<string, Node>, root: Node): Node[] {
  const seen = new Set([root.row.id]);
  const out: Node[] = [];
  for (let i = -1; i < out.length; i += 1) {
    const node = i < 0 ? root : (out[i] as Node);
    for (const id of node.children) {
      const child = nodes.get(id);
      if (child && !seen.has(id)) {
        seen.add(id);
        out.push(child);
      }
    }
  }
  return out;
}

/** Jobs of these pipelines, by pipeline id. */
function jobsByPipeline(jobs: readonly ScheduledJob[]): Map<string, ScheduledJob[]> {
  const out = new Map<string, ScheduledJob[]>();
  for (const job of jobs) {
    const id = job.pipeline?._id;
    if (id) out.set(id, [...(out.get(id) ?? []), job]);
  }
  return out;
}

/**
 * The update reports of pipeline versions, read together (one query per kind and level): each
 * with its dependencies, for a master its country pipelines (each family's newest version
 * pointing at it: it would get a new version pointing at the new master), and the jobs of both.
 */
export async function pipelineReports(
  db: Executor,
  repo: VersionsRepo,
  jobs: PipelineJobs,
  rows: readonly VersionedRow[],
): Promise<Map<string, PipelineUpdateReport>> {
  const masters = rows.filter((r) => r.is_master === true);
  const allCountries = await pipelineVersionsRepo(db).countriesOf(masters.map((m) => m.id));
  const countriesOf = new Map(
    masters.map((m) => [m.id, newestPerFamily(allCountries.filter((c) => c.master_pipeline === m.id))]),
  );
  const forest = await dependencyForest(repo, 'pipeline', [...rows, ...allCountries]);
  // The newest version of every dependency's family; for the countries only the next number.
  const depIds = new Set([...forest.nodes.values()].flatMap((n) => n.children));
  const newest = await newestOfNodes(
    repo,
    [...depIds].map((id) => forest.nodes.get(id) as Node),
  );
  const nextNumber = await pipelineVersionsRepo(db).nextNumbers([...new Set(allCountries.map((c) => c.family_id))]);
  const pipelineIds = [...rows, ...allCountries].map((r) => r.id);
  const { repeatable, scheduled } = await jobs.schedulesOf([...new Set(pipelineIds)]);
  const [repeatOf, scheduledOf] = [jobsByPipeline(repeatable), jobsByPipeline(scheduled)];
  const entriesOf = (row: VersionedRow) => {
    const node = forest.nodes.get(row.id) as Node;
    return reachable(forest.nodes, node).map((n) => entryOf(n, newest));
  };
  const reports = new Map<string, PipelineUpdateReport>();
  for (const row of rows) {
    const entries = entriesOf(row);
    const of = (k: VersionKind) => entries.filter((e) => e.doc.kind === k);
    const needUpdate = entries.some((e) => e.needUpdate);
    const countries = countriesOf.get(row.id) ?? [];
    const countryEntries = countries.map(
      (c): UpdateEntry => ({
        doc: docOf('pipeline', c),
        needUpdate: needUpdate || entriesOf(c).some((e) => e.needUpdate),
        toUpdate: null,
        newVersionNumber: nextNumber.get(c.family_id) ?? c.version + 1,
        newDocIsLocked: false,
      }),
    );
    const withJobs = [row, ...countries].map((r) => r.id);
    const repeatJobs = withJobs.flatMap((id) => repeatOf.get(id) ?? []);
    const scheduledJobs = withJobs.flatMap((id) => scheduledOf.get(id) ?? []);
    reports.set(row.id, {
      _id: row.id,
      doc: docOf('pipeline', row),
      isMaster: row.is_master === true,
      needUpdate,
      data: {
        schemas: of('schema'),
        components: of('component'),
        sdk: of('sdk'),
        pipelines: row.is_master === true ? countryEntries : of('pipeline'),
        needUpdate,
      },
      updateJobs: repeatJobs.length + scheduledJobs.length > 0,
      updateCountries: countries.length > 0,
      repeatJobs,
      scheduledJobs,
    });
  }
  return reports;
}
