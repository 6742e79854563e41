import type { RunLogEntry } from '@gdb/shared/components/run.schemas';
import type { NormalFilter } from '@gdb/shared/live/filter';
import { type LiveTestLog, LOG_LEVELS } from '@gdb/shared/live/live.schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { Database } from '../../platform/db/tables.ts';
import { notifyLive } from '../../platform/live/change-feed.ts';
import { type CollectionDef, type LiveDoc, rowOf, textOrNull } from '../../platform/live/collections.ts';
import { testRunsRepo } from './test-runs.repo.ts';

/** The live collection of test-run log lines; its lines are announced on the live channel, never stored. */
const COLLECTION = 'testLogs';
/** Bytes of one notification's text: PostgreSQL refuses 8,000 (as `logs` announces its lines). */
const NOTE_BYTES = 7_700;
/** Bytes of one line in a notification: a longer message is cut (the run's answer holds it whole). */
const ROW_BYTES = 4_000;
/** How long lines wait to go out together. */
const FLUSH_MS = 40;
/** Roles that run tests (POST /components/{id}/execute; POST /sdk/{name}/execute is super-admins'), and so may follow them. */
const TESTERS = ['manager', 'super-admin'];

const testLogRowSchema = z.object({
  id: z.string(),
  run_id: z.string(),
  user_id: z.string(),
  seq: z.number().int().min(0),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  date: z.string(),
});
type TestLogRow = z.infer<typeof testLogRowSchema>;

function toLiveTestLog(r: TestLogRow): LiveTestLog {
  return { _id: r.id, runId: r.run_id, userId: r.user_id, seq: r.seq, level: r.level, message: r.message, date: r.date };
}

/** A line as a notification carries it, its message cut until its JSON fits in `ROW_BYTES`. */
function rowOfEntry(runId: string, userId: string, entry: RunLogEntry, seq: number): TestLogRow {
  const row: TestLogRow = { id: `${runId}:${seq}`, run_id: runId, user_id: userId, seq, ...entry };
  let keep = entry.message.length;
  while (Buffer.byteLength(JSON.stringify(row)) > ROW_BYTES && keep > 0) {
    keep = Math.floor(keep * 0.75);
    row.message = `${entry.message.slice(0, keep)}…`;
  }
  return row;
}

/** Notifications of `{t, op: 'insert', rows}`, as many whole rows to one as fit in `NOTE_BYTES`. */
function notesOf(rows: readonly TestLogRow[]): string[] {
  const notes: string[] = [];
  let batch: string[] = [];
  let bytes = 0;
  const head = `{"t":"${COLLECTION}","op":"insert","rows":[`;
  const close = () => {
    if (batch.length) notes.push(`${head}${batch.join(',')}]}`);
    batch = [];
    bytes = head.length + 2;
  };
  close();
  for (const row of rows) {
    const text = JSON.stringify(row);
    const size = Buffer.byteLength(text) + 1;
    if (bytes + size > NOTE_BYTES) close();
    batch.push(text);
    bytes += size;
  }
  close();
  return notes;
}

/**
 * The live lines of one test run: each entry the run writes is announced on the live channel a
 * moment later, with others written meanwhile, to whoever follows the run's id (the user who
 * started it, super-admins). `end` announces what the answer holds that did not go out yet; an
 * entry is announced once.
 */
export function testLogStream(k: Kysely<Database>, run: { runId: string; userId: string }, log: FastifyBaseLogger) {
  const announced = new Set<number>();
  let pending: TestLogRow[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const rows = pending;
    pending = [];
    for (const note of notesOf(rows)) {
      chain = chain
        .then(() => notifyLive(k, note))
        .catch((err: unknown) => log.warn({ err, runId: run.runId }, 'test logs: a notification failed'));
    }
  };
  const push = (entry: RunLogEntry, seq: number) => {
    if (announced.has(seq)) return;
    announced.add(seq);
    pending.push(rowOfEntry(run.runId, run.userId, entry, seq));
    timer ??= setTimeout(flush, FLUSH_MS);
  };
  return {
    push,
    /** Announces the entries of the answer not announced yet, then resolves once every notification went out. */
    async end(logs: readonly RunLogEntry[]): Promise<void> {
      for (const [seq, entry] of logs.entries()) push(entry, seq);
      flush();
      await chain;
    },
  };
}

/**
 * Which lines the caller may be sent: those of runs they started; a super-admin, every line. Each
 * line names its run's owner, so a subscription to an id not taken yet receives nothing of a run
 * someone else starts with it.
 */
const visibleTestLogs = async (caller: AuthContext, docs: readonly LiveDoc[]): Promise<LiveDoc[]> =>
  caller.roles.includes('super-admin') ? [...docs] : docs.filter((d) => d.userId === caller.userId);

/**
 * The live `testLogs` collection: a test run's log lines while it runs, filtered by `runId` (required).
 * A manager may follow their own runs and ids no run has taken yet (so the editor subscribes before
 * it starts the run); a run someone else started is refused; super-admins follow any.
 * The lines are not stored: an init or a find answers none (the run's answer holds them all).
 */
export function testLogsLiveCollection(k: Kysely<Database>): CollectionDef {
  const repo = testRunsRepo(k);
  return {
    name: COLLECTION,
    uuidKeys: ['runId'],
    requiresFilter: true,
    read: async () => [],
    byId: async () => undefined,
    fromRow: (row) => {
      const r = rowOf(testLogRowSchema, row);
      return r && toLiveTestLog(r);
    },
    fromKeys: (id, keys) => ({ _id: id, runId: textOrNull(keys.run_id), userId: textOrNull(keys.user_id) }),
    mayRead: async (caller: AuthContext, filter: NormalFilter) => {
      if (!caller.roles.some((r) => TESTERS.includes(r))) return false;
      if (caller.roles.includes('super-admin')) return true;
      const owners = await repo.owners(filter.runId ?? []);
      return owners.every((o) => o.user_id === caller.userId);
    },
    visible: visibleTestLogs,
  };
}
