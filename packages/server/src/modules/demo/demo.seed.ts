import type { AppContext } from '../../platform/context.ts';
import type { ComponentsService } from '../components/components.service.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import type { ReferenceService } from '../reference/reference.service.ts';
import type { SchemasService } from '../schemas/schemas.service.ts';

/**
 * Demo content for a new install, so that the import screens can be used at once: a dealer data
 * model the files are checked against, a component that checks and maps dealer rows (its input
 * port takes the rows as the import hands them over, each checked against a second data model,
 * version 1 and locked), a master pipeline and country pipelines whose sinks write a CSV file and
 * upsert the rows into a data-store table.
 */

export const DEMO_COMPONENT = 'Check and map dealers';
/** The data model of the component's input port. */
export const DEMO_PORT_MODEL = 'Dealer row';

export const DEMO_MASTER = 'Dealers (master)';
/** The country pipelines: France and Germany take CSV files, Spain takes Excel workbooks (XLSX or XLS). */
export const DEMO_COUNTRIES = [
  { name: 'Dealers France', language: 'fr', country: 'FR', contentType: 'csv' },
  { name: 'Dealers Germany', language: 'de', country: 'DE', contentType: 'csv' },
  { name: 'Dealers Spain', language: 'es', country: 'ES', contentType: 'excel' },
] as const;
export const DEMO_DATA_SUB_KIND = 'dealers';
export const DEMO_TABLE = 'demo_dealers';

/**
 * A file the CSV country pipelines accept; the wizard's drop zone takes it as is. Its last dealer
 * leaves the optional fields empty: no value, which the data model allows.
 */
export const DEMO_CSV = [
  'dealerCode,name,city,postalCode,email,vehicles,openedOn',
  'FR001,Garage du Centre,Lyon,69002,contact@garage-centre.example,42,2019-04-01',
  'FR002,Auto Sud,Marseille,13001,info@autosud.example,17,2021-09-15',
  'FR003,Nord Motors,Lille,,,,',
].join('\n');

export const DEMO_DATA_MODEL = {
  type: 'object',
  required: ['dealerCode', 'name', 'city'],
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    city: { type: 'string', minLength: 1 },
    postalCode: { type: 'string', maxLength: 12 },
    email: { type: 'string', format: 'email' },
    vehicles: { type: 'integer', minimum: 0 },
    openedOn: { type: 'string', format: 'date', description: 'The day the dealer opened' },
  },
};

/**
 * A dealer row as the import hands it to the component: a field the file left empty arrives as
 * null, so the optional fields also take null.
 */
const DEMO_PORT_DATA_MODEL = {
  type: 'object',
  required: ['dealerCode', 'name', 'city'],
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    name: { type: 'string', minLength: 1 },
    city: { type: 'string', minLength: 1 },
    postalCode: { type: ['string', 'null'] },
    email: { type: ['string', 'null'] },
    vehicles: { type: ['integer', 'null'], minimum: 0 },
    openedOn: { type: ['string', 'null'], format: 'date' },
  },
};

/** Checks each row once more, normalises names and writes both outputs. */
const DEMO_CODE = `const rows = ctx.input.dealers;
const seen = new Set();
const kept = [];
for (const row of rows) {
  if (seen.has(row.dealerCode)) {
    ctx.log.warn('Dealer ' + row.dealerCode + ' appears twice; the first row is kept.');
    continue;
  }
  seen.add(row.dealerCode);
  kept.push({
    dealerCode: row.dealerCode,
    name: String(row.name).trim(),
    city: String(row.city).trim().toUpperCase(),
    postalCode: row.postalCode ?? null,
    email: row.email ?? null,
    vehicles: row.vehicles ?? null,
    openedOn: row.openedOn ?? null,
    country: ctx.rt_context.pipeline.name,
  });
}
ctx.output.dealers = kept;
ctx.output.store = kept;
ctx.log.info(kept.length + ' dealers mapped for ' + ctx.rt_context.pipeline.name + '.');`;

interface DemoDeps {
  ctx: AppContext;
  reference: ReferenceService;
  schemas: SchemasService;
  components: ComponentsService;
  pipelines: PipelinesService;
}

/**
 * Adds the demo content to a database that holds no pipeline and no component yet (a new
 * install); answers whether it did. Once anything exists it never runs again, so deleting the
 * demo pipelines does not bring them back.
 */
export async function seedDemo(deps: DemoDeps): Promise<boolean> {
  const { ctx, reference, schemas, components, pipelines } = deps;
  const db = ctx.db.kysely;
  const [pipeline, component] = await Promise.all([
    db.selectFrom('pipelines').select('id').limit(1).executeTakeFirst(),
    db.selectFrom('components').select('id').limit(1).executeTakeFirst(),
  ]);
  if (pipeline || component) return false;

  const [brands, locales, productLines, datakinds] = await Promise.all([
    reference.brands(),
    reference.locales(),
    reference.productLines(),
    reference.datakinds(),
  ]);
  const props = {
    brand: brands[0]?._id ?? null,
    productLine: productLines[0]?._id ?? null,
    datakind: datakinds.find((d) => d.isDealer)?._id ?? null,
  };
  const localeOf = (language: string, country: string) =>
    locales.find((l) => l.language === language && l.country === country)?._id ?? null;

  const model = await schemas.create({ name: 'Dealer', jsonSchema: DEMO_DATA_MODEL });
  const portModel = await schemas.create({ name: DEMO_PORT_MODEL, jsonSchema: DEMO_PORT_DATA_MODEL, locked: true });
  const mapper = await components.create({
    name: DEMO_COMPONENT,
    kind: 'instruction',
    // The port receives the rows of a file: each row is checked against the data model.
    inputs: [{ name: DEMO_DATA_SUB_KIND, inputSchema: portModel._id, inputIsJoin: true }],
    outputs: [{ name: 'dealers' }, { name: 'store' }],
    jsCode: DEMO_CODE,
  });
  const sourceOf = (contentType: 'csv' | 'excel') => ({
    dataSubKind: DEMO_DATA_SUB_KIND,
    connectorType: 'manual' as const,
    dataFromMaster: false,
    contentType,
    dataModel: model._id,
  });
  const masterId = await pipelines.create({
    name: DEMO_MASTER,
    isMaster: true,
    masterPipeline: null,
    component: mapper._id,
    dataSources: [sourceOf('csv')],
    dataSinks: [{ name: 'dealers', format: 'CSV', target: null }],
    ...props,
    locale: localeOf('en', 'GB'),
  });
  for (const country of DEMO_COUNTRIES) {
    await pipelines.create({
      name: country.name,
      isMaster: false,
      masterPipeline: masterId,
      component: mapper._id,
      dataSources: [sourceOf(country.contentType)],
      dataSinks: [
        { name: 'dealers', format: 'CSV', target: null },
        { name: 'store', format: 'JSON', target: { table: DEMO_TABLE, keyFields: ['dealerCode'] } },
      ],
      ...props,
      locale: localeOf(country.language, country.country),
    });
  }
  ctx.log.info({ pipelines: 1 + DEMO_COUNTRIES.length }, 'demo pipelines created');
  return true;
}
