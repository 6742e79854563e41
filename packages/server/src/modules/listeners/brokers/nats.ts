import { AckPolicy, connect, DeliverPolicy, type JsMsg, type Msg, type NatsConnection, nanos } from 'nats';
import type { Delivery } from '../listener-batches.ts';
import { type Connect, endSignal, quietly } from './consumer.ts';

/** The queue group every instance joins: each message goes to one of them. */
const QUEUE_GROUP = 'gdb';

/** The durable JetStream consumer of a listener, shared by every instance. */
const durableName = (listenerId: string) => `gdb-${listenerId}`;

const msgIdOf = (m: Msg | JsMsg) => {
  const id = m.headers?.get('Nats-Msg-Id');
  return id ? id : undefined;
};

/** Consumes a subject through the JetStream stream that holds it, by a durable consumer with explicit acks. */
async function consumeJetStream(
  nc: NatsConnection,
  subject: string,
  listenerId: string,
  prefetch: number,
  deliver: (d: Delivery) => void,
) {
  const jsm = await nc.jetstreamManager();
  const stream = await jsm.streams.find(subject);
  const durable = durableName(listenerId);
  const exists = await jsm.consumers.info(stream, durable).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: subject,
      ack_wait: nanos(30_000),
      max_ack_pending: Math.max(1000, prefetch * 2),
    });
  }
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  const messages = await consumer.consume({ max_messages: prefetch });
  void (async () => {
    for await (const m of messages) {
      deliver({
        id: msgIdOf(m) ?? `${stream}:${m.seq}`,
        body: m.data,
        ack: () => quietly(() => m.ack()),
        release: () => quietly(() => m.nak()),
      });
    }
  })().catch(() => quietly(() => nc.close()));
}

/**
 * NATS through nats.js: the subject in the queue group `gdb` (each message to one instance; core
 * NATS keeps nothing for an instance that is away, and acknowledges nothing), or, with JetStream,
 * the stream that holds the subject through a durable consumer shared by every instance, each
 * message acknowledged once stored. Its id for dropping redeliveries is its Nats-Msg-Id header,
 * else (JetStream) its stream sequence.
 */
export const connectNats: Connect = async (options, deliver) => {
  const nc = await connect({
    servers: options.url.toString(),
    user: options.username,
    pass: options.password,
    reconnect: false,
    timeout: 10_000,
    name: `gdb-${options.hostname}`,
  });
  const { ended, end } = endSignal();
  let closing = false;
  nc.closed().then(
    (error) => end(closing ? undefined : (error ?? new Error('The connection to the broker ended.'))),
    (error: unknown) => end(error instanceof Error ? error : new Error(String(error))),
  );
  try {
    if (options.jetStream) await consumeJetStream(nc, options.queue, options.listenerId, options.prefetch, deliver);
    else {
      nc.subscribe(options.queue, {
        queue: QUEUE_GROUP,
        callback: (error, m) => {
          if (error) return;
          deliver({ id: msgIdOf(m), body: m.data, ack: () => undefined });
        },
      });
    }
  } catch (error) {
    closing = true;
    await nc.close().catch(() => undefined);
    throw error;
  }
  return {
    ended,
    close: async () => {
      closing = true;
      await nc.close().catch(() => undefined);
    },
  };
};
