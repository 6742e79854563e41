import crypto from 'node:crypto';
import amqp from 'amqplib';
import mqtt from 'mqtt';
import { connect, headers as natsHeaders } from 'nats';

// Publishers of the brokers every development and CI machine runs (RabbitMQ guest/guest on 5672,
// Mosquitto on 1883, NATS with JetStream on 4222), for the listener tests and benches.

export const BROKER_URLS = { amqp: 'amqp://127.0.0.1:5672', mqtt: 'mqtt://127.0.0.1:1883', nats: 'nats://127.0.0.1:4222' };

/** A message to publish: its body, and its id when it has one. */
export interface Message {
  id?: string;
  body: string | Uint8Array;
}

export interface Publisher {
  /** Publishes the messages in order and waits until the broker has them all. */
  send(messages: readonly Message[]): Promise<void>;
  /** Messages still waiting in the queue (AMQP only; undefined elsewhere). */
  waiting(): Promise<number | undefined>;
  /** Closes the connection, removing what the test made at the broker when `cleanUp`. */
  close(cleanUp?: boolean): Promise<void>;
}

/** A name no other test or run uses, for a queue, topic or subject. */
export const uniqueName = (prefix: string) => `${prefix}.${crypto.randomBytes(6).toString('hex')}`;

const bytes = (body: string | Uint8Array) => (typeof body === 'string' ? Buffer.from(body) : Buffer.from(body));

export async function amqpPublisher(queue: string): Promise<Publisher> {
  const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const channel = await connection.createConfirmChannel();
  await channel.assertQueue(queue, { durable: true });
  return {
    async send(messages) {
      for (const m of messages) {
        const options = { persistent: true, ...(m.id ? { messageId: m.id } : {}) };
        if (!channel.sendToQueue(queue, bytes(m.body), options)) await new Promise((r) => channel.once('drain', r));
      }
      await channel.waitForConfirms();
    },
    waiting: async () => (await channel.checkQueue(queue)).messageCount,
    async close(cleanUp = true) {
      if (cleanUp) await channel.deleteQueue(queue).catch(() => undefined);
      await connection.close();
    },
  };
}

export async function mqttPublisher(topic: string): Promise<Publisher> {
  const client = await mqtt.connectAsync(BROKER_URLS.mqtt, { protocolVersion: 5, clientId: uniqueName('gdb-test') });
  return {
    async send(messages) {
      const sending = messages.map((m) =>
        client.publishAsync(topic, bytes(m.body), {
          qos: 1,
          ...(m.id ? { properties: { userProperties: { msgid: m.id } } } : {}),
        }),
      );
      await Promise.all(sending);
    },
    waiting: async () => undefined,
    async close() {
      await client.endAsync();
    },
  };
}

/** A NATS publisher; with `stream`, the subject is held by a JetStream stream of that name (made here). */
export async function natsPublisher(subject: string, stream?: string): Promise<Publisher> {
  const nc = await connect({ servers: BROKER_URLS.nats });
  if (stream) await (await nc.jetstreamManager()).streams.add({ name: stream, subjects: [subject] });
  const js = nc.jetstream();
  return {
    async send(messages) {
      if (stream) {
        await Promise.all(messages.map((m) => js.publish(subject, bytes(m.body), m.id ? { msgID: m.id } : {})));
        return;
      }
      for (const m of messages) {
        const h = natsHeaders();
        if (m.id) h.set('Nats-Msg-Id', m.id);
        nc.publish(subject, bytes(m.body), { headers: h });
      }
      await nc.flush();
    },
    waiting: async () => undefined,
    async close(cleanUp = true) {
      if (stream && cleanUp) await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
      await nc.drain();
    },
  };
}
