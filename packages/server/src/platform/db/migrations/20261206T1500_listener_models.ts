import type { Kysely } from 'kysely';
import { putSystemSchemas } from './system-schemas.ts';

// The listener form's data model (`rt-listener-info`) gets the fields the listeners read
// (docs/product.md §18.7): the broker kind, its connection URL, the queue / topic / subject, the
// NATS JetStream flag, the batch size and wait, and the credentials at the broker (the password is
// stored encrypted and answered as a placeholder). Content copied, not imported, from the seeding
// migration (README.md beside this file).

type Json = Record<string, unknown>;

const text = (title: string, ui: Json = {}, extra: Json = {}): Json => ({
  type: 'string',
  title,
  ...extra,
  ui: { label: title, ...ui },
});
const integer = (title: string, extra: Json, ui: Json = {}): Json => ({
  type: 'integer',
  title,
  ...extra,
  ui: { label: title, ...ui },
});
const flag = (title: string, ui: Json = {}): Json => ({ type: 'boolean', title, default: false, ui: { label: title, ...ui } });
const object = (title: string, properties: Record<string, Json>, required: string[]): Json => ({
  type: 'object',
  title,
  properties,
  required,
  ui: { legend: title },
});
const NAME = { minLength: 1, maxLength: 200 };

const listenerInfo = object(
  'Listener',
  {
    pipelineName: text('Pipeline', { readonly: true }, NAME),
    kind: text(
      'Broker',
      { widget: 'select', description: 'amqp: RabbitMQ (AMQP 0-9-1); mqtt: an MQTT broker; nats: NATS.' },
      { enum: ['amqp', 'mqtt', 'nats'], default: 'amqp' },
    ),
    url: text(
      'Connection URL',
      {
        placeholder: 'amqp://broker:5672',
        description: 'amqp:// or amqps://, mqtt:// or mqtts://, nats:// or tls://; no user name or password here.',
      },
      { minLength: 1, maxLength: 500 },
    ),
    queue: text(
      'Queue, topic or subject',
      { placeholder: 'prices', description: 'The AMQP queue, the MQTT topic or the NATS subject consumed.' },
      { minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.\\-/:]+$' },
    ),
    jetStream: flag('JetStream', { description: 'NATS only: consume through a JetStream durable consumer.' }),
    batchSize: integer(
      'Batch size',
      { minimum: 1, maximum: 10000, default: 500 },
      { description: 'Messages gathered into one upload at most.' },
    ),
    batchWaitMs: integer(
      'Batch wait (ms)',
      { minimum: 10, maximum: 60000, default: 1000 },
      { description: 'How long a batch waits for more messages before it is stored.' },
    ),
    username: text('User name', {}, { maxLength: 200 }),
    password: text(
      'Password',
      { widgetConfig: { type: 'password' }, description: 'Stored encrypted; never shown again.' },
      { maxLength: 500 },
    ),
  },
  ['pipelineName', 'kind', 'url', 'queue'],
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await putSystemSchemas(db, { 'rt-listener-info': listenerInfo });
}

/** The versions written stay: a down would leave what points at them dangling (the seeding migration's down drops all). */
export async function down(): Promise<void> {}
