// The publisher of the load bench's `listener` mode, in a process of its own as the systems that
// feed a broker are: it offers price messages to an AMQP queue at a steady rate for a time, each
// tick's messages confirmed by the broker before the next, so that a broker that cannot keep up
// shows as fewer messages offered. Started by `listener.ts`, it answers on its IPC channel.
import { amqpPublisher } from '../../packages/server/test/broker-clients.ts';
import { priceMessage } from '../listeners/pipeline.ts';
import { answerJob } from './in-process.ts';

export interface PublishJob {
  queue: string;
  /** Messages per second offered. */
  rate: number;
  seconds: number;
}

export interface PublishTimings {
  offered: number;
  /** From the first message sent to the last one confirmed. */
  totalMs: number;
  /** This process's CPU over it, in seconds. */
  cpuSeconds: number;
}

/** How often a tick's share of the rate is sent. */
const TICK_MS = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function prepare(job: PublishJob): Promise<() => Promise<PublishTimings>> {
  const publisher = await amqpPublisher(job.queue);
  const ticks = Math.round((job.seconds * 1000) / TICK_MS);
  const perTick = (job.rate * TICK_MS) / 1000;
  return async () => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let offered = 0;
    for (let tick = 0; tick < ticks; tick++) {
      await sleep(Math.max(0, t0 + tick * TICK_MS - performance.now()));
      const upTo = Math.round((tick + 1) * perTick);
      await publisher.send(Array.from({ length: upTo - offered }, (_, i) => priceMessage(offered + i)));
      offered = upTo;
    }
    const totalMs = performance.now() - t0;
    // The queue stays: the listener has yet to take what is left of it.
    await publisher.close(false);
    const used = process.cpuUsage(cpu0);
    return { offered, totalMs, cpuSeconds: (used.user + used.system) / 1e6 };
  };
}

answerJob(prepare);
