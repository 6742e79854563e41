import amqp from 'amqplib';
import { type Connect, endSignal, quietly } from './consumer.ts';

/**
 * AMQP 0-9-1 (RabbitMQ) through amqplib: the listener's queue (declared durable when missing),
 * consumed with manual acknowledgement and a prefetch, so that every instance is one of its
 * competing consumers. A message is acknowledged once stored; those not acknowledged when the
 * channel closes go back to the queue. Its id for dropping redeliveries is its message-id property.
 */
export const connectAmqp: Connect = async (options, deliver) => {
  const url = new URL(options.url.toString());
  if (options.username) url.username = encodeURIComponent(options.username);
  if (options.password) url.password = encodeURIComponent(options.password);
  const connection = await amqp.connect(url.toString(), { timeout: 10_000 });
  const { ended, end } = endSignal();
  let closing = false;
  connection.on('error', () => undefined);
  connection.on('close', (error?: Error) => end(closing ? undefined : (error ?? new Error('The broker closed the connection.'))));
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    channel.on('close', () => quietly(() => connection.close()));
    await channel.assertQueue(options.queue, { durable: true });
    await channel.prefetch(options.prefetch);
    await channel.consume(
      options.queue,
      (message) => {
        // The broker cancelled the consumer (its queue was deleted): the connection starts again.
        if (!message) return quietly(() => connection.close());
        const id: unknown = message.properties.messageId;
        deliver({
          id: typeof id === 'string' && id !== '' ? id : undefined,
          body: message.content,
          ack: () => quietly(() => channel.ack(message)),
          release: () => quietly(() => channel.nack(message, false, true)),
        });
      },
      { noAck: false },
    );
  } catch (error) {
    quietly(() => connection.close());
    throw error;
  }
  return {
    ended,
    close: async () => {
      closing = true;
      await connection.close().catch(() => undefined);
    },
  };
};
