// The load bench's `listener` mode: the fifty users' reads alone, then beside a listener ingesting.
// A manager publishes the pipeline fed by a listener through the API, as from the wizard's publish
// panel (AMQP, a queue of its own, the broker on this machine); a publisher in a process of its own
// (`publisher.ts`) then offers messages at a steady rate for as long as the reads are counted. It
// reports the reads alone and beside, the messages offered and taken from the queue in that time,
// the time the listener takes to drain the rest, and the cores each side kept busy.
import { amqpPublisher, BROKER_URLS, type Publisher, uniqueName } from '../../packages/server/test/broker-clients.ts';
import { call } from './client.ts';
import { startInProcess } from './in-process.ts';
import { LISTENER_PIPELINE } from './plan.ts';
import type { PublishJob, PublishTimings } from './publisher.ts';
import { managerOf, type Pipeline, p95Growth, readsWhile, sleep, type User } from './reads.ts';
import type { BenchServer } from './server.ts';

/** The listener's batches, as the bench of listeners takes them. */
const BATCH_SIZE = 1000;
const BATCH_WAIT_MS = 200;
/** How long the queue may take to drain after the publisher stops. */
const DRAIN_MS = 300_000;
const round = (v: number, places = 1) => Math.round(v * 10 ** places) / 10 ** places;

interface HostState {
  hostname: string;
  state: string;
  last_error: string | null;
}

/** Publishes the listener pipeline as its manager; answers once the server says it is connected. */
async function publish(server: BenchServer, manager: User, queue: string): Promise<string> {
  const { pipelines } = await call<{ pipelines: Pipeline[] }>(server.baseUrl, 'GET', '/users/pipelines', {
    token: manager.token,
  });
  const pipeline = pipelines.find((p) => p.name === LISTENER_PIPELINE);
  if (!pipeline) throw new Error(`${LISTENER_PIPELINE} is not among the manager's pipelines`);
  const json = {
    id: pipeline._id,
    kind: 'amqp',
    url: BROKER_URLS.amqp,
    queue,
    batchSize: BATCH_SIZE,
    batchWaitMs: BATCH_WAIT_MS,
    username: 'guest',
    password: 'guest',
  };
  const { _id: id } = await call<{ _id: string }>(server.baseUrl, 'POST', '/pipelines/publish-listener', {
    token: manager.token,
    json,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const states = await hostStates(server, manager, id);
    if (states.some((s) => s.state === 'connected')) return id;
    if (Date.now() > deadline) throw new Error(`the listener did not connect: ${JSON.stringify(states)}`);
    await sleep(250);
  }
}

const hostStates = async (server: BenchServer, manager: User, id: string) =>
  (await call<{ state: HostState[] }>(server.baseUrl, 'GET', `/pipelines/deployed-listener/${id}`, { token: manager.token }))
    .state;

/** Waits until the queue has no message ready; answers the seconds it took, or null past DRAIN_MS. */
async function drained(queue: Publisher): Promise<number | null> {
  const t0 = performance.now();
  while ((await queue.waiting()) !== 0) {
    if (performance.now() - t0 > DRAIN_MS) return null;
    await sleep(100);
  }
  return round((performance.now() - t0) / 1000);
}

/**
 * The messages left unacknowledged once the queue is drained: the listener is un-published (its
 * consumer closes, what it held goes back to the queue) after its last batch has had time to be
 * stored, and the queue counted again.
 */
async function unacknowledged(server: BenchServer, manager: User, id: string, queue: Publisher): Promise<number | undefined> {
  await sleep(BATCH_WAIT_MS + 3000);
  await call(server.baseUrl, 'DELETE', '/pipelines/deployed-listener', { token: manager.token, json: { id } });
  await sleep(2000);
  return queue.waiting();
}

export async function listenerMode(server: BenchServer, users: User[], options: { seconds: number; rate: number }) {
  const manager = managerOf(users);
  const name = uniqueName('gdb.bench.load');
  // The bench's own connection to the queue: made first, it counts what waits and removes it at the end.
  const queue = await amqpPublisher(name);
  try {
    const id = await publish(server, manager, name);
    const alone = await readsWhile(server, users, 0, () => sleep(options.seconds * 1000));
    const job: PublishJob = { queue: name, rate: options.rate, seconds: options.seconds };
    const publisher = await startInProcess<PublishJob, PublishTimings>('./publisher.ts', job);
    const beside = await readsWhile(server, users, 0, () => publisher.go());
    const offered = beside.answer.offered;
    const windowS = beside.answer.totalMs / 1000;
    const takenInWindow = offered - ((await queue.waiting()) ?? 0);
    const drainS = await drained(queue);
    const states = await hostStates(server, manager, id);
    const left = await unacknowledged(server, manager, id, queue);
    return {
      publisher: { rate: options.rate, offered, seconds: round(windowS), offeredPerSecond: Math.round(offered / windowS) },
      listener: { batchSize: BATCH_SIZE, batchWaitMs: BATCH_WAIT_MS, states },
      // Taken from the queue: acknowledged, or delivered to the listener and not yet (its prefetch, 3 batches at most).
      takenFromQueueInWindow: takenInWindow,
      takenPerSecondInWindow: Math.round(takenInWindow / windowS),
      drainedAfterS: drainS,
      storedAfterDrain: left === undefined ? null : offered - left,
      ingestPerSecondToDrained: drainS === null ? null : Math.round(offered / (windowS + drainS)),
      cores: {
        readsAlone: alone.cores,
        readsBesideListener: { ...beside.cores, publisher: round(beside.answer.cpuSeconds / windowS, 2) },
      },
      readsAlone: alone.reads,
      readsBeside: beside.reads,
      p95Growth: p95Growth(alone.reads, beside.reads),
    };
  } finally {
    await queue.close();
  }
}
