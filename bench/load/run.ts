// Load bench: many users at once on one server of its own (loopback only), each with their own
// session. Modes:
//   reads    each user loops over the wizard's and the logbook's reads for the duration;
//   imports  each user uploads a 100-row CSV into one country pipeline and runs it now;
//   beside   a 20 MiB import alone, then the reads alone and while another 20 MiB import runs,
//            with the cores each phase kept busy (server and its main thread, worker,
//            PostgreSQL, the bench itself).
//   listener the reads alone, then while a publisher offers messages to a listener of a pipeline
//            the managers publish (`listener.ts`), with the messages stored and the cores busy.
// Reports requests/s, latency percentiles, failures and the server's resident memory and CPU.
//
//   npm run bench:load -- [reads|imports|beside|listener] [--users 50] [--duration 30] [--wait poll|jitter|live] [--rate 0]
//   (--rate: the reads per second all users make together, each on a schedule; 0: as fast as answered;
//   in `listener`, the messages offered per second, 5000 unless given, the reads as fast as answered)
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
import { call, tryRunNow } from './client.ts';
import { type CoresJob, type CoresTimings, stepsPerSecond } from './cores.ts';
import type { ImportJob, ImportTimings } from './importer.ts';
import { type Ready, startInProcess } from './in-process.ts';
import { listenerMode } from './listener.ts';
import { followPipelineImports, type PipelineImports } from './live.ts';
import { importWatcher, logbook, printSlowestRun, timeline, type Watcher } from './logbook.ts';
import { dealersCsv, summarise, uploadBody } from './plan.ts';
import { cpuMeter, managerOf, type Pipeline, p95Growth, readLoad, readsWhile, signInAll, sleep, type User } from './reads.ts';
import { type BenchServer, startBenchServer } from './server.ts';

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
const readRate = mode === 'listener' ? 0 : Math.max(0, Number(values.rate) || 0);
/** Messages per second the publisher of `listener` offers. */
const listenerRate = Math.min(50_000, Math.max(1, Number(values.rate) || 5000));
if (!['reads', 'imports', 'beside', 'listener'].includes(mode))
  throw new Error(`unknown mode ${mode}: reads, imports, beside or listener`);
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

const forSeconds = (s: number) => {
  const end = Date.now() + s * 1000;
  return () => Date.now() >= end;
};
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

async function besideMode(server: BenchServer, users: User[]) {
  const user = users[0] as User;
  const rssBefore = await idleRss(server, 2);
  const first = await importer(server, user, (user.big[0] as Pipeline)._id);
  const aloneCpu = cpuMeter(server);
  const alone = await first.go();
  const aloneCores = aloneCpu.cores();
  const rssAfterAlone = await idleRss(server);
  const { reads: readsAlone, cores: readsAloneCores } = await readsWhile(server, users, readRate, () => sleep(durationS * 1000));
  // The reads beside the import start with its upload: the importer's own start is not in them.
  const second = await importer(server, user, (user.big[1] as Pipeline)._id);
  const beside = await readsWhile(server, users, readRate, () => second.go());
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
  const { reads: readsAlone } = await readsWhile(server, users, readRate, () => sleep(durationS * 1000));
  const ready = await work();
  const { reads: readsBeside, answer: withReads, cores } = await readsWhile(server, users, readRate, () => ready.go());
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
  // The listener mode's broker is on this machine: its address opened to the listeners.
  const opened: Record<string, string> = mode === 'listener' ? { LISTENER_PRIVATE_RANGES: '127.0.0.0/8' } : {};
  const server = await startBenchServer(userCount, { ...opened, ...settings });
  try {
    const rssIdle = await idleRss(server, 3);
    const users = await signInAll(server, userCount);
    let peak = server.rssMiB();
    const sampler = setInterval(() => {
      peak = Math.max(peak, server.rssMiB());
    }, 250);
    const cpu0 = server.cpuSeconds();
    const t0 = performance.now();
    let result: unknown;
    if (mode === 'reads') result = await readLoad(server, users, readRate, forSeconds(durationS));
    else if (mode === 'imports') result = await importsMode(server, users);
    else if (mode === 'listener') result = await listenerMode(server, users, { seconds: durationS, rate: listenerRate });
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
