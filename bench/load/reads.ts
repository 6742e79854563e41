// The load bench's readers: its users signed in, the reads each one makes as the wizard and the
// logbook do, paced or as fast as answered, counted beside some work with the cores each side kept
// busy. Used by every mode of `run.ts` and by `listener.ts`.
import { call, signIn } from './client.ts';
import { BENCH_PASSWORD, BIG_PIPELINES, benchUserName, COUNTRY_PIPELINE, isManager, summarise, type Timings } from './plan.ts';
import { type BenchServer, postgresCpuSeconds, rabbitCpuSeconds } from './server.ts';

export interface Pipeline {
  _id: string;
  name: string;
  masterPipeline: string | null;
}
export interface User {
  token: string;
  manager: boolean;
  country: Pipeline;
  big: Pipeline[];
}

export async function signInAll(server: BenchServer, userCount: number): Promise<User[]> {
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
export async function readLoad(
  server: BenchServer,
  users: User[],
  readRate: number,
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const managerOf = (users: User[]) => users.find((u) => u.manager) ?? (users[0] as User);

/** CPU seconds this process has used since `start`. */
function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/**
 * How many cores the server (and of them its main thread), the PostgreSQL processes, RabbitMQ and
 * the bench kept busy since the meter started, on average.
 */
export function cpuMeter(server: BenchServer) {
  const t0 = performance.now();
  const server0 = server.cpuSeconds();
  const main0 = server.mainThreadCpuSeconds();
  const worker0 = server.workerCpuSeconds();
  const bench0 = process.cpuUsage();
  const database0 = postgresCpuSeconds();
  const broker0 = rabbitCpuSeconds();
  return {
    cores() {
      const seconds = (performance.now() - t0) / 1000;
      const round = (v: number) => Math.round((v / seconds) * 100) / 100;
      return {
        server: round(server.cpuSeconds() - server0),
        mainThread: round(server.mainThreadCpuSeconds() - main0),
        worker: round(server.workerCpuSeconds() - worker0),
        database: round(postgresCpuSeconds() - database0),
        broker: round(rabbitCpuSeconds() - broker0),
        bench: round(cpuSecondsSince(bench0)),
      };
    },
  };
}

/**
 * The reads for as long as `work` runs (a pause, for the reads alone), counted once they have run
 * WARM_UP_MS before it starts, with the cores both kept busy; the work's answer once the reads have
 * ended (a failure before then must not end the bench and leave its server running).
 */
export async function readsWhile<T>(server: BenchServer, users: User[], readRate: number, work: () => Promise<T>) {
  let running = true;
  let from = Number.POSITIVE_INFINITY;
  const reads = readLoad(
    server,
    users,
    readRate,
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
export const p95Growth = (alone: Timings, beside: Timings) => `${Math.round((beside.p95 / alone.p95 - 1) * 100)}%`;
