// The live-channel benchmark: one server instance, BENCH_SUBSCRIBERS socket.io clients following
// the logs of BENCH_IMPORTS imports, and a writer inserting BENCH_RATE lines per second for
// BENCH_SECONDS seconds. Reports the latency from commit to receipt (p50, p99), lines lost or
// repeated, and the server's memory. See README.md.
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench:live
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { LIVE_PATH } from '@gdb/shared/live/live.schemas';
import { decode } from '@msgpack/msgpack';
import { io, type Socket } from 'socket.io-client';
import { createTestDb } from '../../packages/server/test/test-db.ts';
import { now, parseLine, type WriterPlan, type WriterResult } from './writer-loop.ts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const subscribers = num('BENCH_SUBSCRIBERS', 200);
const imports = num('BENCH_IMPORTS', 200);
const rate = num('BENCH_RATE', 2000);
const seconds = num('BENCH_SECONDS', 30);
const commitsPerSecond = num('BENCH_COMMITS_PER_SECOND', 100);
const here = import.meta.dirname;
const execArgv = ['--no-node-snapshot', '--import', 'tsx'];

interface Memory {
  rss: number;
  heapUsed: number;
  peakRss: number;
  peakHeap: number;
  cpuMs: number;
  hub: { sockets: number; subscriptions: number; queued: number; behind: number; delivered: number };
}
type ServerMessage =
  | { type: 'ready'; url: string; token: string; importIds: string[]; memory: Memory }
  | { type: 'memory'; memory: Memory }
  | { type: 'writer-done'; result: WriterResult };

function isOfType<T extends ServerMessage['type']>(m: ServerMessage, type: T): m is Extract<ServerMessage, { type: T }> {
  return m.type === type;
}

function nextMessage<T extends ServerMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ServerMessage) => {
      if (!isOfType(m, type)) return;
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`${type}: child exited with ${code}`)));
  });
}

const pg = process.env.DATABASE_URL ? await createTestDb() : undefined;
const env = { ...process.env, BENCH_IMPORTS: String(imports), ...(pg?.url ? { BENCH_DATABASE_URL: pg.url } : {}) };
const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
const server = fork(path.join(here, 'server.ts'), { execArgv: [...execArgv, ...profile], env, stdio: 'inherit' });
let lastMemory: Memory | undefined;
server.on('message', (m: ServerMessage) => {
  if (m.type === 'memory' || m.type === 'ready') lastMemory = m.memory;
});
const ready = await nextMessage(server, 'ready');
console.log(
  `engine ${pg ? 'PostgreSQL' : 'PGlite'} · ${subscribers} subscribers over ${imports} imports · ` +
    `${rate} lines/s in ${commitsPerSecond} commits/s for ${seconds} s`,
);

// Each subscriber follows one import; line seq goes to import seq % imports.
const latencies = new Float64Array(Math.ceil((rate * seconds * subscribers) / imports) + subscribers);
let received = 0;
let repeated = 0;
let outOfOrder = 0;
const seen: Uint8Array[] = [];
const lastSeq: number[] = [];
const sockets: Socket[] = [];
let inits = 0;
for (let i = 0; i < subscribers; i++) {
  const importId = ready.importIds[i % imports] ?? '';
  seen.push(new Uint8Array(rate * seconds));
  lastSeq.push(-1);
  const socket = io(ready.url, { path: LIVE_PATH, transports: ['websocket'], auth: { token: ready.token }, forceNew: true });
  socket.on('init', () => {
    inits += 1;
  });
  socket.on('exception', (e: { message: string }) => console.error(`subscriber ${i}: exception ${e.message}`));
  socket.on('change', (hex: string) => {
    const at = now();
    const value = decode(Buffer.from(hex, 'hex'));
    if (typeof value !== 'object' || value === null || !('data' in value)) return;
    const data = value.data;
    if (typeof data !== 'object' || data === null || !('fullDocument' in data)) return;
    const doc = data.fullDocument;
    if (typeof doc !== 'object' || doc === null || !('message' in doc) || typeof doc.message !== 'string') return;
    const line = parseLine(doc.message);
    if (!line) return;
    const mine = seen[i];
    if (!mine) return;
    if (mine[line.seq]) repeated += 1;
    mine[line.seq] = 1;
    if (line.seq < (lastSeq[i] ?? -1)) outOfOrder += 1;
    lastSeq[i] = line.seq;
    if (received < latencies.length) latencies[received] = at - line.sentAt;
    received += 1;
  });
  socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: `bench-${i}`, token: ready.token });
  sockets.push(socket);
}
const waitUntil = async (check: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  return check();
};
if (!(await waitUntil(() => inits === subscribers, 30_000))) throw new Error(`only ${inits} of ${subscribers} inits arrived`);
await new Promise((r) => setTimeout(r, 1_000));
const idleMemory = lastMemory;
const clientCpuStart = process.cpuUsage();

const plan: WriterPlan = { importIds: ready.importIds, linesPerSecond: rate, seconds, commitsPerSecond };
let writerResult: WriterResult;
if (pg?.url) {
  const writer = fork(path.join(here, 'writer.ts'), [JSON.stringify(plan)], { execArgv, env, stdio: 'inherit' });
  writerResult = (await nextMessage(writer, 'writer-done')).result;
} else {
  server.send({ type: 'write', plan });
  writerResult = (await nextMessage(server, 'writer-done')).result;
}
const expected = (rate * seconds * subscribers) / imports;
// Late is not lost: wait until everything arrived, or nothing more arrived for 5 s.
const writerEnd = now();
let lastCount = -1;
let lastChange = now();
await waitUntil(() => {
  if (received !== lastCount) {
    lastCount = received;
    lastChange = now();
  }
  return received >= expected || now() - lastChange > 5_000;
}, 300_000);
const drainMs = now() - writerEnd;
const clientCpu = process.cpuUsage(clientCpuStart);
await new Promise((r) => setTimeout(r, 300));
const peak = lastMemory;
const serverCpuMs = (peak?.cpuMs ?? 0) - (idleMemory?.cpuMs ?? 0);
const perDelivery = (ms: number) => Number(((ms * 1000) / Math.max(received, 1)).toFixed(1));

let missing = 0;
for (let i = 0; i < subscribers; i++) {
  const mine = seen[i];
  if (!mine) continue;
  for (let seq = i % imports; seq < writerResult.lines; seq += imports) if (!mine[seq]) missing += 1;
}
const sorted = latencies.slice(0, Math.min(received, latencies.length)).sort();
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const mb = (n: number | undefined) => `${((n ?? 0) / 1024 / 1024).toFixed(0)} MB`;
const summary = {
  engine: pg ? 'postgres' : 'pglite',
  subscribers,
  imports,
  rate,
  seconds,
  commitsPerSecond,
  writer: { ...writerResult, achievedRate: Math.round((writerResult.lines / writerResult.elapsedMs) * 1000) },
  deliveries: { expected, received, missing, repeated, outOfOrder, drainMs: Math.round(drainMs) },
  loadAverage: os.loadavg().map((n) => Number(n.toFixed(2))),
  latencyMs: { p50: pct(50), p90: pct(90), p99: pct(99), max: sorted.at(-1) },
  cpu: {
    serverMs: Math.round(serverCpuMs),
    serverUsPerDelivery: perDelivery(serverCpuMs),
    subscribersMs: Math.round((clientCpu.user + clientCpu.system) / 1000),
    subscribersUsPerDelivery: perDelivery((clientCpu.user + clientCpu.system) / 1000),
  },
  serverMemory: { idleRss: mb(idleMemory?.rss), peakRss: mb(peak?.peakRss), peakHeap: mb(peak?.peakHeap), endRss: mb(peak?.rss) },
  hub: peak?.hub,
};
console.log(JSON.stringify(summary, null, 2));
const ok = missing === 0 && repeated === 0 && summary.latencyMs.p99 <= 100;
console.log(ok ? 'PASS: no line lost, p99 ≤ 100 ms' : 'FAIL: lines lost or p99 above 100 ms');

for (const s of sockets) s.close();
server.send({ type: 'stop' });
await new Promise((r) => server.once('exit', r));
await pg?.drop();
process.exitCode = ok ? 0 : 1;
