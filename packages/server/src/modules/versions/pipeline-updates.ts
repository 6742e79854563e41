import type {
  BulkError,
  MovedJob,
  PipelineUpdateAnswer,
  PipelineUpdateData,
} from '@gdb/shared/pipelines/pipeline-versions.schemas';
import { VERSION_MESSAGES } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { type Executor, inTransaction } from '../../platform/db/transaction.ts';
import { AppError, badRequest } from '../../platform/http/errors.ts';
import { CLOSED_PIPELINE, cannotRead } from './closed-names.ts';
import { newestPerFamily, type PipelineJobs } from './pipeline-reports.ts';
import { pipelineVersionsRepo } from './pipeline-versions.repo.ts';
import { type DependencyGraph, dependencyGraph, docOf, updateEntries } from './version-graph.ts';
import { applyUpdate, chosenMoves } from './version-update.ts';
import type { VersionedRow, VersionsRepo } from './versions.repo.ts';
import type { VersionsService } from './versions.service.ts';

/** What the pipeline version calls work with: the database, the engine and the jobs. */
export interface PipelineScope {
  db: Executor;
  repo: VersionsRepo;
  versions: VersionsService;
  jobs: PipelineJobs;
}

/** A refusal of one pipeline in a bulk call, kept as an error entry; anything else is not the caller's and is thrown. */
export function bulkError(row: { name: string; version: number | null }, error: unknown): BulkError {
  if (!(error instanceof AppError) || error.status >= 500) throw error;
  return { name: row.name, version: row.version, error: error.message };
}

/** The moves an update would make, found by walking it without writing (new versions get stand-in ids). */
async function plannedMoves(graph: DependencyGraph, chosen: ReadonlyMap<string, string>) {
  const { moves } = await applyUpdate(graph, chosen, {
    check: async () => {},
    copy: async (n) => ({ ...n.row, id: `planned:${n.row.id}` }),
    patch: async () => undefined,
  });
  return moves;
}

/** The moves of a master's update that concern a country (those of versions in its graph). */
const movesFor = (graph: DependencyGraph, moves: ReadonlyMap<string, string>) =>
  new Map([...moves].filter(([id]) => graph.nodes.has(id)));

/** The country pipelines of a master version (each family's newest pointing at it), by name; none for a country. */
export async function countriesOf(db: Executor, master: VersionedRow): Promise<VersionedRow[]> {
  return master.is_master === true ? newestPerFamily(await pipelineVersionsRepo(db).countriesOf([master.id])) : [];
}

/** What applying an update to one pipeline made: its new versions and every move. */
type Applied = Awaited<ReturnType<VersionsService['applyIn']>>;

/**
 * Updating a pipeline version: new versions pointing at the chosen newer dependencies; with
 * `updateCountries` (a master) its country pipelines follow the new master and the same moves;
 * with `updateJobs` the jobs of each updated pipeline move to its new version. Each pipeline's
 * update (its new versions and its jobs) is one transaction, the master's first; a country refused
 * by the write check or as it is written is left as it was and named in `errors`.
 */
export function pipelineUpdater({ db, repo, versions, jobs }: PipelineScope) {
  /** The countries an update with `updateCountries` takes: those named in pipelinesToUpdate, else all. */
  async function countriesToUpdate(row: VersionedRow, data: PipelineUpdateData) {
    if (!data.updateCountries) return [];
    const all = await countriesOf(db, row);
    const named = all.filter((c) => data.pipelinesToUpdate?.includes(c.id));
    return named.length > 0 ? named : all;
  }

  /**
   * The countries' graphs, each checked against the master's planned moves; refused ones become
   * errors, those the caller may not read unnamed.
   */
  async function checkedCountries(auth: AuthContext, countries: VersionedRow[], planned: ReadonlyMap<string, string>) {
    const ready: DependencyGraph[] = [];
    const errors: BulkError[] = [];
    const open = await versions.openIds(
      auth,
      countries.map((c) => docOf('pipeline', c)),
    );
    for (const country of countries) {
      const graph = await dependencyGraph(repo, 'pipeline', country);
      try {
        if (!open.has(country.id)) throw cannotRead('pipeline');
        await versions.checkUpdate(auth, graph, movesFor(graph, planned));
        ready.push(graph);
      } catch (error) {
        const named = open.has(country.id);
        errors.push(
          bulkError({ name: named ? String(country.name) : CLOSED_PIPELINE, version: named ? country.version : null }, error),
        );
      }
    }
    return { ready, errors };
  }

  /** Moves the jobs of an updated pipeline to its new version, in the update's transaction. */
  async function moveJobs(trx: Executor, from: VersionedRow, made: Applied) {
    const to = made.moves.get(from.id);
    const entry = made.success.find((s) => s.newId === to);
    if (!to || !entry) return [];
    const out: MovedJob[] = [];
    for (const id of await jobs.moveSchedules(from.id, to, trx)) {
      out.push({
        _id: id,
        fromId: from.id,
        fromName: String(from.name),
        fromVersion: from.version,
        toId: to,
        toVersion: entry.new_version,
      });
    }
    return out;
  }

  /** One pipeline's new versions and, with `updateJobs`, its jobs, in a transaction of their own. */
  const applyOne = (auth: AuthContext, graph: DependencyGraph, moves: ReadonlyMap<string, string>, withJobs: boolean) =>
    inTransaction(db, async (trx) => {
      const made = await versions.applyIn(trx, auth, graph, moves);
      return { made, jobs: withJobs ? await moveJobs(trx, graph.root.row, made) : [] };
    });

  return async function update(auth: AuthContext, data: PipelineUpdateData): Promise<PipelineUpdateAnswer> {
    if (!data.id) throw badRequest(VERSION_MESSAGES.missingId);
    const row = await versions.load('pipeline', data.id);
    const graph = await dependencyGraph(repo, 'pipeline', row);
    const chosen = chosenMoves(await updateEntries(repo, graph), data);
    if (chosen.size === 0) return { success: [], jobs: [], errors: [] };
    await versions.checkUpdate(auth, graph, chosen);
    const planned = await plannedMoves(graph, chosen);
    const { ready, errors } = await checkedCountries(auth, await countriesToUpdate(row, data), planned);
    const updateJobs = data.updateJobs === true;
    const main = await applyOne(auth, graph, chosen, updateJobs);
    const answer: PipelineUpdateAnswer = { success: [...main.made.success], jobs: [...main.jobs], errors };
    // Each country in its own transaction: one refused as it is written is named, the others stay done.
    for (const country of ready) {
      try {
        const done = await applyOne(auth, country, movesFor(country, main.made.moves), updateJobs);
        answer.success.push(...done.made.success);
        answer.jobs.push(...done.jobs);
      } catch (error) {
        errors.push(bulkError({ name: String(country.root.row.name), version: country.root.row.version }, error));
      }
    }
    return answer;
  };
}
