import { z } from 'zod';
import { ENDPOINT_MESSAGES } from '../endpoints/endpoint.schemas.ts';

/** The brokers a listener consumes from: RabbitMQ (AMQP 0-9-1), an MQTT broker, NATS. */
export const LISTENER_KINDS = ['amqp', 'mqtt', 'nats'] as const;
export type ListenerKind = (typeof LISTENER_KINDS)[number];

/** The schemes a listener's connection URL may use, by broker kind. */
export const LISTENER_SCHEMES: Record<ListenerKind, readonly string[]> = {
  amqp: ['amqp:', 'amqps:'],
  mqtt: ['mqtt:', 'mqtts:'],
  nats: ['nats:', 'tls:'],
};

/** What a stored password is answered as: the password itself never leaves the server. */
export const PASSWORD_PLACEHOLDER = '********';

/** States a server instance reports for a listener it runs. */
export const LISTENER_STATES = ['connecting', 'connected', 'error', 'stopped'] as const;

/** A queue, topic or subject: printable, no spaces, no MQTT wildcards or NATS wildcards in its first part. */
export const LISTENER_QUEUE = /^[A-Za-z0-9_.\-/:]+$/;

/** Defaults of a first publish for the fields left out. */
export const LISTENER_DEFAULTS = { jetStream: false, batchSize: 500, batchWaitMs: 1000, username: '' } as const;

/** POST /pipelines/publish-listener: the pipeline, and the rt-listener-info form's values (kept from the last publish when left out). */
export const publishListenerBodySchema = z.object({
  id: z.string().min(1).max(64).describe('Id of the pipeline version to publish.'),
  kind: z.enum(LISTENER_KINDS).optional().describe('The broker: amqp (RabbitMQ, AMQP 0-9-1), mqtt or nats.'),
  url: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('Connection URL without credentials, e.g. amqp://broker:5672/vhost, mqtt://broker:1883, nats://broker:4222.'),
  queue: z
    .string()
    .min(1)
    .max(200)
    .regex(LISTENER_QUEUE, 'Use letters, digits and . _ - / : only')
    .optional()
    .describe('The AMQP queue, the MQTT topic or the NATS subject consumed.'),
  jetStream: z.boolean().optional().describe('NATS only: consume through a JetStream durable consumer (acknowledged).'),
  batchSize: z.number().int().min(1).max(10_000).optional().describe('Messages gathered into one upload at most (default 500).'),
  batchWaitMs: z
    .number()
    .int()
    .min(10)
    .max(60_000)
    .optional()
    .describe('How long a batch waits for more messages before it is stored, in ms (default 1000).'),
  username: z.string().max(200).optional().describe('User name at the broker (none when empty).'),
  password: z
    .string()
    .max(500)
    .optional()
    .describe(
      `Password at the broker, stored encrypted; left out or '${PASSWORD_PLACEHOLDER}': the stored one is kept; empty: none.`,
    ),
});
export type PublishListenerBody = z.infer<typeof publishListenerBodySchema>;

/** DELETE /pipelines/deployed-listener: the listener (or the pipeline it publishes) to un-publish. */
export const unpublishListenerBodySchema = z.object({
  id: z.string().min(1).max(64).describe('Id of the listener, or of the pipeline version it publishes.'),
});

export const listenerHostStateSchema = z.object({
  hostname: z.string().describe('The server instance (its host name).'),
  state: z.enum(LISTENER_STATES).describe('connecting, connected, error or stopped.'),
  last_error: z.string().nullable().describe('The last error this instance met with this listener, or null.'),
});

/** A listener as the Listeners screen lists it (docs/product.md §18.7). */
export const listenerViewSchema = z.object({
  _id: z.string().describe('Listener id.'),
  pipelineId: z.string().describe('The pipeline version it runs.'),
  pipelineName: z.string().nullable().describe("null when the pipeline is gone ('Err: NO PIPELINE')."),
  pipelineVersion: z.number().int().nullable().describe("The pipeline's version; null when it is gone."),
  pipelineVLocked: z.boolean().nullable().describe('Whether that version is locked; null when it is gone.'),
  state: z.array(listenerHostStateSchema).describe('What each server instance reports of it.'),
  isValid: z.boolean().describe('False when the pipeline is gone or no longer has a listener data source.'),
  dataSubKind: z.string().nullable().describe('The listener data source the messages fill.'),
  kind: z.enum(LISTENER_KINDS).describe('The broker: amqp, mqtt or nats.'),
  url: z.string().describe('Connection URL (without credentials).'),
  queue: z.string().describe('The AMQP queue, the MQTT topic or the NATS subject.'),
  jetStream: z.boolean().describe('NATS: consumed through a JetStream durable consumer.'),
  batchSize: z.number().int().describe('Messages gathered into one upload at most.'),
  batchWaitMs: z.number().int().describe('How long a batch waits for more messages, in ms.'),
  username: z.string().describe('User name at the broker, or empty.'),
  password: z.string().describe(`'${PASSWORD_PLACEHOLDER}' when a password is stored, else empty: never the password.`),
  createDate: z.string().describe('When it was first published (ISO date-time).'),
  createUsername: z.string().describe('Who first published it.'),
  updateDate: z.string().describe('When it was last published (ISO date-time).'),
  updateUsername: z.string().describe('Who last published it (its uploads and imports act for them).'),
});
export type ListenerView = z.infer<typeof listenerViewSchema>;

export const LISTENER_MESSAGES = {
  /** The spec's toast of a publish, whether endpoint or listener. */
  published: ENDPOINT_MESSAGES.published,
  unpublished: 'Listener un-published',
  notListener: 'This pipeline has no listener data source.',
  notFound: 'Listener not found.',
  incomplete: 'Give the broker kind, its connection URL and the queue, topic or subject.',
  badScheme: 'The connection URL does not suit this broker kind.',
  credentialsInUrl: 'Give the user name and password in their fields, not in the connection URL.',
  hostRefused: 'The broker host is a loopback, private or internal address, which this server does not reach.',
  hostUnknown: 'The broker host is not known.',
  jetStreamNats: 'JetStream applies to NATS listeners only.',
  publisherGone: 'The publisher of this listener may no longer run its pipeline: it must be published again.',
} as const;
