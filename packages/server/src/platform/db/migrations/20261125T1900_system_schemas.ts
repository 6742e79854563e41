import type { Kysely } from 'kysely';
import { dropSystemSchemas, putSystemSchemas } from './system-schemas.ts';

// The data models the editors draw their forms from (docs/product.md §18.2, §18.5): the fields of
// the SDK function, the component, the pipeline, an endpoint data source and the endpoint and
// listener publication. Each field has its type, a title, what it requires, and where the form
// library needs them its `ui` options: label, description, placeholder, widget (textarea, code,
// schema, component, pipeline, sdk — the pickers of those documents), widgetConfig, readonly,
// hidden and columns (1 to 12). Seeded locked; a later migration upgrades one with
// putSystemSchemas (see README.md beside this file).

type Json = Record<string, unknown>;

const text = (title: string, ui: Json = {}, extra: Json = {}): Json => ({
  type: 'string',
  title,
  ...extra,
  ui: { label: title, ...ui },
});
const flag = (title: string, ui: Json = {}): Json => ({ type: 'boolean', title, default: false, ui: { label: title, ...ui } });
const code = (title: string, description: string): Json =>
  text(title, { widget: 'code', widgetConfig: { language: 'javascript' }, description });
const schemaRef = (title: string): Json =>
  text(title, { widget: 'schema', placeholder: 'Choose a data model' }, { format: 'uuid' });
const list = (title: string, items: Json, ui: Json = {}): Json => ({
  type: 'array',
  title,
  items,
  default: [],
  ui: { label: title, ...ui },
});
const object = (title: string, properties: Record<string, Json>, required: string[], ui: Json = {}): Json => ({
  type: 'object',
  title,
  properties,
  required,
  ui: { legend: title, ...ui },
});
const NAME = { minLength: 1, maxLength: 200 };
const PORT = { minLength: 1, maxLength: 64 };

const sdkSchema = object(
  'Build the sdk',
  {
    functionName: text('Name', { placeholder: 'myFunction' }, { ...NAME, pattern: '^[A-Za-z_$][A-Za-z0-9_$]*$' }),
    documentation: text('Documentation', { widget: 'textarea' }),
    input: text('Input', { widget: 'textarea', description: 'The arguments the function takes.' }),
    output: text('Output', { widget: 'textarea', description: 'What the function answers.' }),
    error: text('Error', { widget: 'textarea', description: 'What the function throws.' }),
    modules: list('Modules', { type: 'string', minLength: 1 }, { description: 'Packages the function uses.' }),
    jsCode: code('Code', 'An asynchronous JavaScript function.'),
    testPayload: list('Test arguments', {}, { description: 'The arguments of a test run, as an array.' }),
  },
  ['functionName', 'jsCode'],
);

const inputPort = object(
  'Input',
  {
    name: text('Name', {}, PORT),
    inputSchema: schemaRef('Data model'),
    isJoin: flag('Join'),
    isFork: flag('Fork'),
    inputIsJoin: flag('Input is join'),
  },
  ['name'],
);
const outputPort = object(
  'Output',
  { name: text('Name', {}, PORT), outputSchema: schemaRef('Data model'), isJoin: flag('Join'), isFork: flag('Fork') },
  ['name'],
);
const instance = object(
  'Instance',
  { name: text('Name', {}, PORT), instanceOf: text('Component', { widget: 'component' }, { format: 'uuid' }) },
  ['name', 'instanceOf'],
);
const link = object(
  'Link',
  {
    name: text('Name', {}, PORT),
    fromInstance: text('From instance', { description: "Empty: the component's own input port." }),
    fromPort: text('From port', {}, PORT),
    toInstance: text('To instance', { description: "Empty: the component's own output port." }),
    toPort: text('To port', {}, PORT),
    jsCode: code('Code', 'Maps the input to the output; by default the output is the input.'),
    inputSchema: text('Input data model', { readonly: true, description: 'Filled from the linked ports on save.' }),
    outputSchema: text('Output data model', { readonly: true, description: 'Filled from the linked ports on save.' }),
  },
  ['name', 'fromPort', 'toPort'],
);

const componentSchema = object(
  'Build the component',
  {
    name: text('Name', {}, NAME),
    description: text('Description', { widget: 'textarea' }),
    kind: text(
      'Kind',
      { widget: 'select' },
      { enum: ['workflow', 'forEach', 'instruction', 'function'], default: 'instruction' },
    ),
    inputs: list('Inputs', inputPort, { columns: 6 }),
    outputs: list('Outputs', outputPort, { columns: 6 }),
    instances: list('Instances', instance),
    links: list('Links', link),
    jsCode: code('Code', 'The code of an instruction or function component.'),
    sdk: list('SDK functions', { type: 'string', format: 'uuid' }, { widget: 'sdk' }),
    testPayload: { type: 'object', title: 'Test payload', default: {}, ui: { label: 'Test payload', widget: 'code' } },
    testContext: { type: 'object', title: 'Test context', default: {}, ui: { label: 'Test context', widget: 'code' } },
  },
  ['name', 'kind'],
);

const CONNECTORS = ['manual', 'real-time', 'endpoint', 'listener'];
const CONTENT_TYPES = ['csv', 'excel', 'xml', 'json'];
const dataSource = object(
  'Data source',
  {
    dataSubKind: text(
      'Data sub kind',
      { description: 'Files are uploaded under this name.' },
      { ...PORT, pattern: '^[A-Za-z0-9_-]+$' },
    ),
    connectorType: text(
      'Connector',
      { widget: 'select', description: 'manual: uploaded files.' },
      { enum: CONNECTORS, default: 'manual' },
    ),
    dataFromMaster: flag('Data from master'),
    contentType: text('Content type', { widget: 'select' }, { enum: CONTENT_TYPES, default: 'csv' }),
    dataModel: schemaRef('Data model'),
    url: text('Url', { description: 'Where a real-time source is fetched from.' }, { format: 'uri', maxLength: 2000 }),
  },
  ['dataSubKind', 'connectorType', 'contentType'],
);
const dataSink = object(
  'Data sink',
  {
    name: text('Output port', { description: 'The component output port whose rows the sink takes.' }, PORT),
    format: text('Format', { widget: 'select' }, { enum: ['CSV', 'JSON', 'XLSX'], default: 'CSV' }),
  },
  ['name'],
);
const pipelineSchema = object(
  'Pipeline',
  {
    name: text('Name', {}, NAME),
    isMaster: flag('Master'),
    masterPipeline: text('Master pipeline', { widget: 'pipeline', description: 'A country pipeline inherits from it.' }),
    component: text('Component', { widget: 'component' }, { format: 'uuid' }),
    pipelineSchema: schemaRef('Pipeline data model'),
    inputSchema: schemaRef('Input data model'),
    outputSchema: schemaRef('Output data model'),
    dataSources: list('Data sources', dataSource),
    dataSinks: list('Data sinks', dataSink),
    brand: text('Brand', { widget: 'select' }),
    locale: object('Locale', { language: text('Language'), country: text('Country') }, [], { columns: 6 }),
    productLine: text('Product line', { widget: 'select' }),
    datakind: text('Datakind', { widget: 'select' }),
    isHidden: flag('Hidden', { description: 'Hidden pipelines are left out of the lists of the role user.' }),
  },
  ['name', 'isMaster'],
);

const PATH = { minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9/_-]+$' };
const sourceEndpoint = object(
  'Endpoint source',
  {
    name: text('Name', {}, NAME),
    path: text('Path', { placeholder: 'dealers/prices', description: 'Where the endpoint receives the rows.' }, PATH),
    contentType: text('Content type', { widget: 'select' }, { enum: CONTENT_TYPES, default: 'json' }),
  },
  ['name', 'path'],
);
const endpointInfo = object(
  'Endpoint',
  { name: text('Name', {}, NAME), path: text('Path', { placeholder: 'dealers/prices' }, PATH) },
  ['name', 'path'],
);
const listenerInfo = object('Listener', { pipelineName: text('Pipeline', { readonly: true }, NAME) }, ['pipelineName']);

export const SYSTEM_SCHEMAS: Record<string, Json> = {
  'rt-sdk-schema': sdkSchema,
  'rt-pipeline': pipelineSchema,
  'rt-component': componentSchema,
  'rt-source-endpoint': sourceEndpoint,
  'rt-endpoint-info': endpointInfo,
  'rt-listener-info': listenerInfo,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await putSystemSchemas(db, SYSTEM_SCHEMAS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropSystemSchemas(db, Object.keys(SYSTEM_SCHEMAS));
}
