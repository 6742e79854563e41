// The load bench's view of the imports, as a manager's logbook shows them: their records read
// every 200 ms, where the time of a set of imports went, and the log of the longest run.
import { call } from './client.ts';
import { sleep } from './reads.ts';
import type { BenchServer } from './server.ts';

/** The states of imports, read from the logbook (the last 100) every 200 ms by one user. */
interface ImportRecord {
  _id: string;
  state: string;
  createdAt: string;
  startedAt: string | null;
  endAt: string | null;
}

/** The last 100 imports, from the logbook. */
export async function logbook(server: BenchServer, token: string): Promise<ImportRecord[]> {
  const url = '/imports/listAll?pageNumber=0&nbItemsPerPage=100&time=past';
  return (await call<{ records: ImportRecord[] }>(server.baseUrl, 'GET', url, { token })).records;
}

export function importWatcher(server: BenchServer, token: string) {
  const states = new Map<string, ImportRecord>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const records = await logbook(server, token).catch((error: unknown) => {
        console.error(`logbook read failed: ${error instanceof Error ? error.message : String(error)}`);
        return [];
      });
      for (const r of records) states.set(r._id, r);
      await sleep(200);
    }
  })();
  const ended = (id: string) => ['done', 'failed', 'aborted'].includes(states.get(id)?.state ?? '');
  return {
    state: (id: string) => states.get(id)?.state,
    records: () => [...states.values()],
    async waitEnded(id: string, deadline: number): Promise<string> {
      while (!ended(id) && Date.now() < deadline) await sleep(50);
      return states.get(id)?.state ?? 'unknown';
    },
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

export type Watcher = ReturnType<typeof importWatcher>;

/**
 * Where the time of the imports went, from their records: the first created after the start
 * (uploads checked), the runs themselves, and the pipeline idle between one run's end and the
 * next one's start.
 */
export function timeline(records: ImportRecord[], startedAt: number) {
  const ms = (iso: string | null) => (iso ? Date.parse(iso) : Number.NaN);
  const runs = records.filter((r) => r.startedAt && r.endAt).sort((a, b) => ms(a.startedAt) - ms(b.startedAt));
  const first = Math.min(...records.map((r) => ms(r.createdAt)));
  let running = 0;
  let idle = 0;
  let waitingToStart = 0;
  let endToNextCreated = 0;
  for (const [i, r] of runs.entries()) {
    running += ms(r.endAt) - ms(r.startedAt);
    waitingToStart += ms(r.startedAt) - ms(r.createdAt);
    const before = runs[i - 1];
    if (before) idle += Math.max(0, ms(r.startedAt) - ms(before.endAt));
    if (before) endToNextCreated += Math.max(0, ms(r.createdAt) - ms(before.endAt));
  }
  const s = (v: number) => Math.round(v / 100) / 10;
  return {
    firstImportCreatedAfterS: s(first - startedAt),
    runsS: s(running),
    runMeanS: s(running / Math.max(1, runs.length)),
    idleBetweenRunsS: s(idle),
    /** Of that idle time, from one run's end to the next import's creation (the users' Run now). */
    endToNextCreatedS: s(endToNextCreated),
    createdToStartedMeanS: s(waitingToStart / Math.max(1, runs.length)),
  };
}

/** BENCH_VERBOSE: the log of the longest run, each line with its time from the run's start, on stderr. */
export async function printSlowestRun(server: BenchServer, token: string, records: ImportRecord[]) {
  const took = (r: ImportRecord) => Date.parse(r.endAt ?? '') - Date.parse(r.startedAt ?? '');
  const slowest = records.filter((r) => r.startedAt && r.endAt).sort((a, b) => took(b) - took(a))[0];
  if (!slowest) return;
  const lines = await call<{ logDate: string; message: string }[]>(server.baseUrl, 'GET', `/logs/jobs?id=${slowest._id}`, {
    token,
  });
  const start = Date.parse(slowest.startedAt ?? '');
  console.error(`The longest run, ${took(slowest)} ms:`);
  for (const l of lines) console.error(`  +${Date.parse(l.logDate) - start} ms  ${l.message.slice(0, 120)}`);
}
