// Load bench: many users at once on one server of its own (loopback only), each with their own
// session. Modes:
//   reads    each user loops over the wizard's and the logbook's reads for the duration;
//   imports  each user uploads a 100-row CSV into one country pipeline and runs it now;
//   beside   a 20 MiB import alone, then the reads alone and while another 20 MiB import runs,
//            with the cores each phase kept busy (server and its main thread, worker,
//            PostgreSQL, the bench itself).
// Reports requests/s, latency percentiles, failures and the server's resident memory and CPU.
//
//   npm run bench:load -- [reads|imports|beside] [--users 50] [--duration 30] [--wait poll|jitter|live] [--rate 0]
//   (--rate: the reads per second all users make together, each on a schedule; 0: as fast as answered)
//   (--wait: how an `imports` user waits for a busy pipeline: Run now again every 250 to 750 ms,
//   the default, every 500 ms in step with the others (poll), or once the live channel says the
//   pipeline is free)
//   DATABASE_URL=postgresql://…/any (a new database is made on that server; PGlite otherwise),
//   BENCH_CPU_PROF=folder (a CPU profile of the server), BENCH_SETTINGS='{"DB_POOL_SIZE":"20"}',
//   BENCH_WORKER=1 (with DATABASE_URL: the imports run in a worker process, `npm run worker`),
//   BENCH_VERBOSE=1 (the log of the slowest run, or in `beside` of both 20 MiB runs, with times)
//   BENCH_BESIDE_CORES='{"threads":2,"nice":0,"seconds":1}' (`beside` with work for the CPU alone in
//   place of the import, in a process of its own: its threads, their priority, each one's seconds;
//   "seconds":[1,0.4] gives each thread its own, work that keeps 1.4 cores busy over its time)
import os from 'node:os';
import { parseArgs } from 'node:util';
import { call, signIn, tryRunNow } from './client.ts';
import { type CoresJob, type CoresTimings, stepsPerSecond } from './cores.ts';
import type { ImportJob, ImportTimings } from './importer.ts';
import { type Ready, startInProcess } from './in-process.ts';
import { followPipelineImports, type PipelineImports } from './live.ts';
import {
  BENCH_PASSWORD,
  BIG_PIPELINES,
  benchUserName,
  COUNTRY_PIPELINE,
  dealersCsv,
  isManager,
  summarise,
  type Timings,
  uploadBody,
} from './plan.ts';
import { type BenchServer, postgresCpuSeconds, startBenchServer } from './server.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    users: { type: 'string', default: '50' },
    duration: { type: 'string', default: '30' },
    wait: { type: 'string', default: 'jitter' },
    rate: { type: 'string', default: '0' },
  },
});
const mode = positionals[0] ?? 'reads';
const userCount = Math.min(500, Math.max(1, Number(values.users)));
const durationS = Math.min(600, Math.max(1, Number(values.duration)));
/** Reads per second all users make together (0: each user asks again as soon as it is answered). */
const readRate = Math.max(0, Number(values.rate) || 0);
if (!['reads', 'imports', 'beside'].includes(mode)) throw new Error(`unknown mode ${mode}: reads, imports or beside`);
/**
 * How a user of `imports` waits for a busy pipeline: trying again every RETRY_BUSY_MS on average
 * but not in step with the others (jitter: 0.5 to 1.5 times it, as people each try again when they
 * do), every RETRY_BUSY_MS in step (poll: fifty users refused at the same moment then try again at
 * the same moments, and a run that ends just after a round leaves the pipeline idle until the
 * next), or until the live channel says the pipeline is free (live).
 */
const waitLive = values.wait === 'live';
const retryJitter = values.wait === 'jitter';
if (!['poll', 'jitter', 'live'].includes(values.wait ?? ''))
  throw new Error(`unknown --wait ${values.wait}: poll, jitter or live`);

interface Pipeline {
  _id: string;
  name: string;
  masterPipeline: string | null;
}
interface User {
  token: string;
  manager: boolean;
  country: Pipeline;
  big: Pipeline[];
}

async function signInAll(server: BenchServer): Promise<User[]> {
  const users: User[] = [];
  for (let i = 1; i <= userCount; i++) {
    const token = await signIn(server.baseUrl, benchUserName(i), BENCH_PASSWORD);
    const { pipelines } = await call<{ pipelines: Pipeline[] }>(server.baseUrl, 'GET', '/users/pipelines', { token });
    const country = pipelines.find((p) => p.name === COUNTRY_PIPELINE);
    if (!country) throw new Error(`${COUNTRY_PIPELINE} is not among the user's pipelines`);
    const big = BIG_PIPELINES.map((name) => pipelines.find((p) => p.name === name) as Pipeline);
    users.push({ token, manager: isManager(i), country, big });
  }
  return users;
}

/** The reads the wizard (steps 1 and 2) makes, and a manager's logbook, in the order they are met. */
function readsOf(user: User): string[] {
  const { _id: id, masterPipeline } = user.country;
  const wizard = [
    '/users/info',
    '/users/pipelines',
    `/pipelines/pipelinesOfMaster?id=${masterPipeline ?? id}`,
    `/uploads/last-all?pipelineId=${id}`,
    `/imports/job?pipelineId=${id}`,
  ];
  const logbook = [
    '/imports/listScheduled',
    '/imports/listAllFilters',
    '/imports/listAll?pageNumber=0&nbItemsPerPage=9&time=past',
  ];
  return user.manager ? [...wizard, ...logbook] : wizard;
}

/**
 * The users' reads until `until` says so; only those started from `countFrom()` on are counted (the
 * reads before it bring the server to its pace).
 */
async function readLoad(
  server: BenchServer,
  users: User[],
  until: () => boolean,
  countFrom: () => number = () => 0,
): Promise<Timings & { failedWith: string[] }> {
  const latencies: number[] = [];
  let failures = 0;
  const reasons = new Set<string>();
  const started = performance.now();
  // Paced (--rate): each user asks on a schedule of its own, from a random start, and a read's time
  // runs from when it was due, so a server that falls behind shows it.
  const every = readRate > 0 ? (users.length / readRate) * 1000 : 0;
  await Promise.all(
    users.map(async (user) => {
      const reads = readsOf(user);
      let due = started + Math.random() * every;
      for (let i = 0; !until(); i++) {
        if (every > 0) await sleep(Math.max(0, due - performance.now()));
        const t0 = every > 0 ? due : performance.now();
        due += every;
        const counted = t0 >= countFrom();
        try {
          await call(server.baseUrl, 'GET', reads[i % reads.length] as string, { token: user.token });
          if (counted) latencies.push(performance.now() - t0);
        } catch (error) {
          if (counted) failures++;
          if (reasons.size < 5) reasons.add(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  const seconds = (performance.now() - Math.max(started, countFrom())) / 1000;
  return { ...summarise(latencies, failures, seconds), failedWith: [...reasons] };
}

/** How long the reads run before `beside` counts them: the server at their pace, as it is when an import comes. */
const WARM_UP_MS = 2000;

const forSeconds = (s: number) => {
  const end = Date.now() + s * 1000;
  return () => Date.now() >= end;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How often a user asks whether an upload is checked (the wizard hears it on the live channel), and tries Run now again while the pipeline is busy. */
const CHECK_POLL_MS = 500;
const RETRY_BUSY_MS = 500;
/** The longest pause before a user who heard the pipeline free clicks Run now. */
const CLICK_PAUSE_MS = 100;

/** Waits until the uploads are checked; throws unless they are valid. */
async function waitChecked(server: BenchServer, token: string, ids: string[], deadline: number): Promise<void> {
  for (;;) {
    const views = await call<{ status: string }[]>(server.baseUrl, 'GET', `/uploads/status?ids=${ids.join(',')}`, { token });
    if (views.every((v) => v.status === 'valid')) return;
    const bad = views.find((v) => v.status === 'invalid');
    if (bad) throw new Error('an upload was found invalid');
    if (Date.now() > deadline) throw new Error('the upload was not checked in time');
    await sleep(CHECK_POLL_MS);
  }
}

/** The states of imports, read from the logbook (the last 100) every 200 ms by one user. */
interface ImportRecord {
  _id: string;
  state: string;
  createdAt: string;
  startedAt: string | null;
  endAt: string | null;
}

/** The last 100 imports, from the logbook. */
async function logbook(server: BenchServer, token: string): Promise<ImportRecord[]> {
  const url = '/imports/listAll?pageNumber=0&nbItemsPerPage=100&time=past';
  return (await call<{ records: ImportRecord[] }>(server.baseUrl, 'GET', url, { token })).records;
}

function importWatcher(server: BenchServer, token: string) {
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

type Watcher = ReturnType<typeof importWatcher>;
const managerOf = (users: User[]) => users.find((u) => u.manager) ?? (users[0] as User);

/** Starts an immediate import, again every RETRY_BUSY_MS while its pipeline is busy (409); answers its id. */
async function runNow(
  server: BenchServer,
  user: User,
  pipelineId: string,
  deadline: number,
): Promise<{ id: string; refused: number }> {
  for (let refused = 0; ; refused++) {
    const id = await tryRunNow(server.baseUrl, user.token, pipelineId, deadline);
    if (id) return { id, refused };
    await sleep(retryJitter ? RETRY_BUSY_MS * (0.5 + Math.random()) : RETRY_BUSY_MS);
  }
}

/**
 * Starts an immediate import as a user with the wizard open does: Run now once the live channel
 * says the pipeline is free (after a short random pause, as people do not all click at the same
 * millisecond, and not when another user's import started meanwhile); a 409 waits for the next
 * free moment. Answers its id.
 */
async function runNowHeard(
  server: BenchServer,
  user: User,
  pipelineId: string,
  live: PipelineImports,
  deadline: number,
): Promise<{ id: string; refused: number }> {
  for (let refused = 0; ; ) {
    await live.idle(Math.max(0, deadline - Date.now()));
    await sleep(Math.random() * CLICK_PAUSE_MS);
    if (live.busy()) continue;
    const id = await tryRunNow(server.baseUrl, user.token, pipelineId, deadline);
    if (id) return { id, refused };
    refused++;
    // Heard free but refused: the other import is not heard yet; wait for it (or a moment) first.
    await live.idle(0);
    await sleep(RETRY_BUSY_MS / 10);
  }
}

/** Uploads a file, waits for its check, runs the pipeline now and waits for the import to end. */
async function uploadAndRun(server: BenchServer, user: User, pipelineId: string, file: Buffer, watcher: Watcher) {
  const deadline = Date.now() + 10 * 60_000;
  const t0 = performance.now();
  const live = waitLive ? await followPipelineImports(server.baseUrl, user.token, pipelineId) : undefined;
  try {
    const { body, contentType } = uploadBody(pipelineId, file, 'dealers.csv');
    const ids = await call<string[]>(server.baseUrl, 'POST', '/uploads', { token: user.token, body, contentType });
    const uploadedMs = performance.now() - t0;
    await waitChecked(server, user.token, ids, deadline);
    const checkedMs = performance.now() - t0;
    const run = live
      ? await runNowHeard(server, user, pipelineId, live, deadline)
      : await runNow(server, user, pipelineId, deadline);
    const state = live ? await live.ended(run.id, deadline) : await watcher.waitEnded(run.id, deadline);
    return { id: run.id, state, refused: run.refused, uploadedMs, checkedMs, totalMs: performance.now() - t0 };
  } finally {
    live?.close();
  }
}

/**
 * Where the time of the imports went, from their records: the first created after the start
 * (uploads checked), the runs themselves, and the pipeline idle between one run's end and the
 * next one's start.
 */
function timeline(records: ImportRecord[], startedAt: number) {
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
async function printSlowestRun(server: BenchServer, token: string, records: ImportRecord[]) {
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

async function importsMode(server: BenchServer, users: User[]) {
  const watcher = importWatcher(server, managerOf(users).token);
  const t0 = performance.now();
  const wallStart = Date.now();
  const results = await Promise.all(
    users.map((user, i) =>
      uploadAndRun(server, user, user.country._id, dealersCsv({ rows: 100, seed: i * 100 }), watcher).catch((error: unknown) => ({
        id: '',
        state: `error: ${error instanceof Error ? error.message : String(error)}`,
        refused: 0,
        checkedMs: 0,
        totalMs: performance.now() - t0,
      })),
    ),
  );
  const allSeconds = (performance.now() - t0) / 1000;
  await sleep(300);
  await watcher.stop();
  const ids = new Set(results.map((r) => r.id));
  const records = watcher.records().filter((r) => ids.has(r._id));
  const spent = timeline(records, wallStart);
  if (process.env.BENCH_VERBOSE) await printSlowestRun(server, managerOf(users).token, records);
  const failed = results.filter((r) => r.state !== 'done');
  const totals = summarise(
    results.map((r) => r.totalMs),
    0,
    allSeconds,
  );
  return {
    imports: results.length,
    allFinishedSeconds: Math.round(allSeconds * 10) / 10,
    failed: failed.length,
    failures: [...new Set(failed.map((r) => r.state))],
    perUserSeconds: { p50: totals.p50 / 1000, p95: totals.p95 / 1000, max: totals.max / 1000 },
    refusedWhileBusy: results.reduce((n, r) => n + r.refused, 0),
    timeline: spent,
  };
}

/** CPU seconds this process has used since `start`. */
function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/** How many cores the server (and of them its main thread) and the PostgreSQL processes kept busy since the meter started, on average. */
function cpuMeter(server: BenchServer) {
  const t0 = performance.now();
  const server0 = server.cpuSeconds();
  const main0 = server.mainThreadCpuSeconds();
  const worker0 = server.workerCpuSeconds();
  const bench0 = process.cpuUsage();
  const database0 = postgresCpuSeconds();
  return {
    cores() {
      const seconds = (performance.now() - t0) / 1000;
      const round = (v: number) => Math.round((v / seconds) * 100) / 100;
      return {
        server: round(server.cpuSeconds() - server0),
        mainThread: round(server.mainThreadCpuSeconds() - main0),
        worker: round(server.workerCpuSeconds() - worker0),
        database: round(postgresCpuSeconds() - database0),
        bench: round(cpuSecondsSince(bench0)),
      };
    },
  };
}

/** The server's memory once it has been idle a few seconds. */
async function idleRss(server: BenchServer, seconds = 10): Promise<number> {
  await sleep(seconds * 1000);
  return Math.round(server.rssMiB());
}

/** The size of the file `beside` imports. */
const BIG_FILE_BYTES = 19.5 * 1024 * 1024;

/**
 * A user's import of a large file (`importer.ts`) in a process of its own, once that process is
 * ready (its file made, its live channel open): `go` imports and answers the timings.
 */
function importer(server: BenchServer, user: User, pipelineId: string): Promise<Ready<ImportTimings>> {
  const job: ImportJob = { baseUrl: server.baseUrl, token: user.token, pipelineId, bytes: BIG_FILE_BYTES };
  return startInProcess<ImportJob, ImportTimings>('./importer.ts', job);
}

/**
 * The reads for as long as `work` runs (a pause, for the reads alone), counted once they have run
 * WARM_UP_MS before it starts, with the cores both kept busy; the work's answer once the reads have
 * ended (a failure before then must not end the bench and leave its server running).
 */
async function readsWhile<T>(server: BenchServer, users: User[], work: () => Promise<T>) {
  let running = true;
  let from = Number.POSITIVE_INFINITY;
  const reads = readLoad(
    server,
    users,
    () => !running,
    () => from,
  );
  await sleep(WARM_UP_MS);
  from = performance.now();
  const cpu = cpuMeter(server);
  const done = work().finally(() => {
    running = false;
  });
  done.catch(() => undefined);
  const counted = await reads;
  const answer = await done;
  return { reads: counted, answer, cores: cpu.cores() };
}

/** How much longer the reads' p95 was beside the work than alone, in per cent. */
const p95Growth = (alone: Timings, beside: Timings) => `${Math.round((beside.p95 / alone.p95 - 1) * 100)}%`;

async function besideMode(server: BenchServer, users: User[]) {
  const user = users[0] as User;
  const rssBefore = await idleRss(server, 2);
  const first = await importer(server, user, (user.big[0] as Pipeline)._id);
  const aloneCpu = cpuMeter(server);
  const alone = await first.go();
  const aloneCores = aloneCpu.cores();
  const rssAfterAlone = await idleRss(server);
  const { reads: readsAlone, cores: readsAloneCores } = await readsWhile(server, users, () => sleep(durationS * 1000));
  // The reads beside the import start with its upload: the importer's own start is not in them.
  const second = await importer(server, user, (user.big[1] as Pipeline)._id);
  const beside = await readsWhile(server, users, () => second.go());
  const { reads: readsBeside, answer: withReads, cores: besideCores } = beside;
  const records = await logbook(server, managerOf(users).token);
  if (process.env.BENCH_VERBOSE) {
    for (const run of [alone, withReads]) {
      await printSlowestRun(
        server,
        managerOf(users).token,
        records.filter((r) => r._id === run.id),
      );
    }
  }
  const rssAfter = await idleRss(server);
  const ms = (r: ImportTimings) => {
    const record = records.find((i) => i._id === r.id);
    const runS = record?.startedAt && record.endAt ? (Date.parse(record.endAt) - Date.parse(record.startedAt)) / 1000 : null;
    const s = (v: number) => Math.round(v) / 1000;
    return {
      state: r.state,
      uploadedS: s(r.uploadedMs),
      checkedS: s(r.checkedMs),
      runS,
      totalS: s(r.totalMs),
      importerCpuS: r.cpuSeconds,
    };
  };
  return {
    file: { bytes: Math.round(BIG_FILE_BYTES) },
    importAlone: ms(alone),
    importBesideReads: ms(withReads),
    cores: { importAlone: aloneCores, readsAlone: readsAloneCores, importBesideReads: besideCores },
    importSlowdown: Math.round((withReads.totalMs / alone.totalMs) * 100) / 100,
    readsAlone,
    readsBeside,
    p95Growth: p95Growth(readsAlone, readsBeside),
    rssMiB: { before: rssBefore, afterImportAlone: rssAfterAlone, afterImportBeside: rssAfter },
  };
}

/**
 * `beside` with work for the CPU alone in place of the import (BENCH_BESIDE_CORES, see cores.ts):
 * that work alone, the reads alone, then the reads beside it.
 */
async function besideCoresMode(
  server: BenchServer,
  users: User[],
  spec: { threads?: number; nice?: number; seconds?: number | number[] },
) {
  const seconds = Array.isArray(spec.seconds) ? spec.seconds : Array(spec.threads ?? 2).fill(spec.seconds ?? 1);
  const perSecond = stepsPerSecond();
  const job: CoresJob = { nice: spec.nice ?? 0, steps: seconds.map((s: number) => Math.round(s * perSecond)) };
  const work = () => startInProcess<CoresJob, CoresTimings>('./cores.ts', job);
  const alone = await (await work()).go();
  const { reads: readsAlone } = await readsWhile(server, users, () => sleep(durationS * 1000));
  const ready = await work();
  const { reads: readsBeside, answer: withReads, cores } = await readsWhile(server, users, () => ready.go());
  const s = (t: CoresTimings) => ({ totalS: Math.round(t.totalMs) / 1000, cpuS: Math.round(t.cpuSeconds * 100) / 100 });
  return {
    standIn: job,
    workAlone: s(alone),
    workBesideReads: s(withReads),
    cores: { readsBesideWork: cores },
    workSlowdown: Math.round((withReads.totalMs / alone.totalMs) * 100) / 100,
    readsAlone,
    readsBeside,
    p95Growth: p95Growth(readsAlone, readsBeside),
  };
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.env.BENCH_SETTINGS ?? '{}') as Record<string, string>;
  const server = await startBenchServer(userCount, settings);
  try {
    const rssIdle = await idleRss(server, 3);
    const users = await signInAll(server);
    let peak = server.rssMiB();
    const sampler = setInterval(() => {
      peak = Math.max(peak, server.rssMiB());
    }, 250);
    const cpu0 = server.cpuSeconds();
    const t0 = performance.now();
    let result: unknown;
    if (mode === 'reads') result = await readLoad(server, users, forSeconds(durationS));
    else if (mode === 'imports') result = await importsMode(server, users);
    else if (process.env.BENCH_BESIDE_CORES)
      result = await besideCoresMode(server, users, JSON.parse(process.env.BENCH_BESIDE_CORES));
    else result = await besideMode(server, users);
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const serverCpu = `${Math.round(((server.cpuSeconds() - cpu0) / seconds) * 100)}%`;
    const rss = { idleAtStart: rssIdle, peak: Math.round(peak), end: Math.round(server.rssMiB()) };
    const context = {
      date: new Date().toISOString(),
      engine: server.engine,
      users: userCount,
      load: os.loadavg().map((l) => l.toFixed(1)),
    };
    console.log(JSON.stringify({ mode, ...context, result, serverCpu, serverRssMiB: rss }, null, 2));
  } catch (error) {
    console.error(`The server's last output:\n${server.output()}`);
    throw error;
  } finally {
    await server.stop();
  }
}

await main();
