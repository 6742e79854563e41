import type { Kysely } from 'kysely';
import { putSystemSchemas } from './system-schemas.ts';

// The endpoint forms' data models get the fields the runtime reads (docs/product.md §18.7): an
// endpoint data source (`rt-source-endpoint`) and a publication (`rt-endpoint-info`) name the path
// below the runtime base URL, the content type callers send and the calls a key may make a minute.
// Content copied, not imported, from the seeding migration (README.md beside this file).

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
const object = (title: string, properties: Record<string, Json>, required: string[]): Json => ({
  type: 'object',
  title,
  properties,
  required,
  ui: { legend: title },
});
const NAME = { minLength: 1, maxLength: 200 };
const PATH = { minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$' };
const CONTENT_TYPES = ['json', 'csv', 'excel', 'xml'];
const path = () =>
  text(
    'Path',
    { placeholder: 'dealers/prices', description: 'Below the runtime base URL: letters, digits, - and _, parts split by /.' },
    PATH,
  );
const description = () => text('Description', { widget: 'textarea' }, { maxLength: 2000 });
const perMinute = () =>
  integer(
    'Calls a minute',
    { minimum: 1, maximum: 6000, default: 600 },
    { description: 'How many calls one key may make a minute; more answer 429.' },
  );

const sourceEndpoint = object(
  'Endpoint source',
  {
    name: text('Name', {}, NAME),
    path: path(),
    contentType: text(
      'Content type',
      { widget: 'select', description: 'What callers send: json (an array of rows), csv, excel (xlsx) or xml.' },
      { enum: CONTENT_TYPES, default: 'json' },
    ),
    description: description(),
  },
  ['name', 'path', 'contentType'],
);
const endpointInfo = object(
  'Endpoint',
  { name: text('Name', {}, NAME), path: path(), description: description(), callsPerMinute: perMinute() },
  ['name', 'path'],
);

export async function up(db: Kysely<unknown>): Promise<void> {
  await putSystemSchemas(db, { 'rt-source-endpoint': sourceEndpoint, 'rt-endpoint-info': endpointInfo });
}

/** The versions written stay: a down would leave what points at them dangling (the seeding migration's down drops all). */
export async function down(): Promise<void> {}
