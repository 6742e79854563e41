import { MAX_WAIT_SECONDS } from '@gdb/shared/endpoints/endpoint.schemas';
import type { DataSource } from '@gdb/shared/pipelines/pipeline.schemas';

type Json = Record<string, unknown>;

/** The media type callers send for each content type of a data source. */
const MEDIA: Record<DataSource['contentType'], string> = {
  json: 'application/json',
  csv: 'text/csv',
  excel: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xml: 'application/xml',
};

/** A data model as plain JSON Schema: the form options (`ui`) left out, at every depth. */
function withoutForms(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutForms);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'ui')
      .map(([k, v]) => [k, withoutForms(v)]),
  );
}

const envelopeOf = (data: Json, description: string): Json => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code', 'message', 'data'],
        properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
      },
    },
  },
});
const problem = (description: string) => envelopeOf({ type: ['object', 'null'] }, description);

/** What the call answers: the import started, or ended with its outputs. */
const ANSWER: Json = {
  type: 'object',
  required: ['importId', 'uploadId', 'queued', 'state'],
  properties: {
    importId: { type: 'string', description: 'The import that takes the rows (with ?wait=, the one that took them).' },
    uploadId: { type: 'string', description: 'The upload the body was stored as.' },
    queued: {
      type: 'boolean',
      description: 'True when that import waits for the one running now, and starts as soon as it ends.',
    },
    state: { type: 'string', description: 'The import state: pending, busy, progress, done, failed or aborted.' },
    outputs: { type: 'array', items: { type: 'object' }, description: 'The files the run wrote, when it ended within the wait.' },
  },
};

/** The request body: rows of the data model as JSON, or a file of the content type whose rows it checks. */
function requestBody(source: DataSource, dataModel: Json | undefined): Json {
  const rows = dataModel ? withoutForms(dataModel) : {};
  const schema =
    source.contentType === 'json'
      ? { type: 'array', items: rows }
      : { type: 'string', format: source.contentType === 'excel' ? 'binary' : undefined, 'x-rows': rows };
  return {
    required: true,
    description: `At most 20 MiB. Each row must satisfy the data model${source.contentType === 'json' ? '' : ' (x-rows)'}.`,
    content: { [MEDIA[source.contentType]]: { schema: JSON.parse(JSON.stringify(schema)) } },
  };
}

/** The OpenAPI 3.1 document of one endpoint, built from its data source and data model. */
export function endpointOpenApi(
  e: { name: string; description: string; path: string; baseUrl: string },
  source: DataSource,
  dataModel: Json | undefined,
): Json {
  return {
    openapi: '3.1.0',
    info: { title: e.name, version: '1', description: e.description || undefined },
    servers: [{ url: e.baseUrl }],
    components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
    security: [{ apiKey: [] }],
    paths: {
      [`/${e.path}`]: {
        post: {
          operationId: 'call',
          summary: `Send rows of ${source.dataSubKind} and run the pipeline`,
          parameters: [
            {
              name: 'wait',
              in: 'query',
              required: false,
              description: 'Seconds to wait for the run to end, answering its outputs.',
              schema: { type: 'integer', minimum: 0, maximum: MAX_WAIT_SECONDS, default: 0 },
            },
          ],
          requestBody: requestBody(source, dataModel),
          responses: {
            '200': envelopeOf(ANSWER, 'The run ended within the wait: its state and outputs.'),
            '202': envelopeOf(
              ANSWER,
              'The rows are stored and an import takes them: started now, or queued behind the running one (shared by the calls meanwhile).',
            ),
            '401': problem('The key is missing or wrong.'),
            '413': problem('The body is over 20 MiB.'),
            '422': problem('The data model refuses the body: data.issues lists the problems by row.'),
            '429': problem('Too many calls with this key this minute; see Retry-After.'),
          },
        },
      },
    },
  };
}
