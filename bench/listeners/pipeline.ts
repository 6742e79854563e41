// The listener benches' pipeline: a data model of price rows, a component that doubles the prices
// and a pipeline whose one data source is a listener of JSON messages, made through the services
// as the editors make them; and the messages those benches publish to it.
import type { buildApp } from '../../packages/server/src/app.ts';
import type { Message } from '../../packages/server/test/broker-clients.ts';

type Services = Awaited<ReturnType<typeof buildApp>>['services'];

/** Makes the pipeline (named `name`, data model made by `userId`); answers its id. */
export async function createListenerPipeline(services: Services, userId: string, name: string): Promise<string> {
  const model = await services.schemas.create({
    name: 'Price rows',
    jsonSchema: {
      type: 'object',
      properties: { code: { type: 'string', minLength: 1 }, price: { type: 'number' }, currency: { type: 'string' } },
      required: ['code', 'price'],
    },
    userId,
  });
  const component = await services.components.create({
    name: 'Double prices',
    kind: 'instruction',
    inputs: [{ name: 'prices' }],
    outputs: [{ name: 'out' }],
    jsCode: 'ctx.output.out = ctx.input.prices.map((r) => ({ code: r.code, price: r.price * 2 }));',
  });
  const [brand] = await services.reference.brands();
  const [locale] = await services.reference.locales();
  const [productLine] = await services.reference.productLines();
  const datakind = (await services.reference.datakinds()).find((d) => d.isDealer);
  return services.pipelines.create({
    name,
    isMaster: false,
    masterPipeline: null,
    component: component._id,
    dataSources: [
      { dataSubKind: 'prices', connectorType: 'listener', dataFromMaster: false, contentType: 'json', dataModel: model._id },
    ],
    dataSinks: [{ name: 'out', format: 'JSON', target: null }],
    brand: brand?._id ?? null,
    locale: locale?._id ?? null,
    productLine: productLine?._id ?? null,
    datakind: datakind?._id ?? null,
  });
}

/** The `i`th message: one price row, with an id of its own (`prefix` keeps runs apart). */
export const priceMessage = (i: number, prefix = 'm'): Message => ({
  id: `${prefix}${i}`,
  body: JSON.stringify({ code: `C${i}`, price: i / 100, currency: 'EUR' }),
});
