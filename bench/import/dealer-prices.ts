// The dealer price file the import benches read: its columns, the data model it is checked against,
// the file itself (the same bytes on every run) and the mapping a pipeline runs on it.

import type { Services } from '../../packages/server/src/app.ts';
import { seededRandom } from '../../packages/server/test/seeded-random.ts';

export const COLUMNS = [
  'dealerCode',
  'partNumber',
  'description',
  'brand',
  'quantity',
  'unitPrice',
  'vatRate',
  'currency',
  'validFrom',
  'email',
] as const;

export const DATA_MODEL = {
  type: 'object',
  required: ['dealerCode', 'partNumber', 'description', 'quantity', 'unitPrice', 'currency'],
  additionalProperties: false,
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    partNumber: { type: 'string', pattern: '^[A-Z0-9]{3}-[0-9]{5}$' },
    description: { type: 'string', minLength: 1, maxLength: 200 },
    brand: { type: 'string', enum: ['', 'Renault', 'Dacia', 'Alpine', 'Nissan', 'Mitsubishi'] },
    quantity: { type: 'integer', minimum: 0 },
    unitPrice: { type: 'number', minimum: 0 },
    vatRate: { type: 'number', minimum: 0, maximum: 1 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
    validFrom: { type: 'string', format: 'date' },
    email: { type: 'string', format: 'email' },
  },
};

// A mapping a real price file gets: trims, normalises, computes the price with VAT.
export const MAPPING = `const rows = ctx.input.prices;
const out = new Array(rows.length);
for (let i = 0; i < rows.length; i++) {
  const r = rows[i];
  out[i] = {
    dealerCode: r.dealerCode,
    partNumber: r.partNumber,
    description: r.description.trim(),
    brand: (r.brand || '').toUpperCase(),
    quantity: r.quantity,
    unitPrice: r.unitPrice,
    priceInclVat: Math.round(r.unitPrice * (1 + (r.vatRate || 0)) * 100) / 100,
    currency: r.currency,
    validFrom: r.validFrom,
    email: r.email,
  };
}
ctx.output.prices = out;
ctx.log.info(out.length + ' price rows mapped.');`;

export function generateCsv(rows: number): string {
  const next = seededRandom(20261122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const int = (n: number) => Math.floor(next() * n);
  const letters = [...'ABCDEFGHJKLMNPRSTUVWXYZ'];
  const alnum = [...'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'];
  const countries = ['FR', 'DE', 'ES', 'IT', 'BE', 'NL', 'PT', 'AT'];
  const brands = ['Renault', 'Dacia', 'Alpine', 'Nissan', 'Mitsubishi'];
  const parts = ['Brake pad set', 'Oil filter', 'Wiper blade', 'Spark plug', 'Air filter', 'Clutch kit', 'Headlamp'];
  const sides = ['front', 'rear', 'left', 'right', 'kit'];
  const vat = ['0.2', '0.19', '0.21', '0.22', '0.055'];
  const lines: string[] = [COLUMNS.join(',')];
  for (let i = 0; i < rows; i++) {
    const country = pick(countries);
    const dealer = `${country}${String(int(1000)).padStart(3, '0')}`;
    const part = `${pick(alnum)}${pick(alnum)}${pick(letters)}-${String(int(100_000)).padStart(5, '0')}`;
    // Some descriptions hold the delimiter and are quoted, as exports from spreadsheets are.
    const text = `${pick(parts)} ${pick(sides)} ${int(90) + 10}`;
    const description = i % 10 === 0 ? `"${text}, pack of ${int(8) + 2}"` : text;
    const brand = i % 25 === 0 ? '' : pick(brands);
    const price = (int(99_999) / 100 + 1).toFixed(2);
    const date = `2026-${String(int(12) + 1).padStart(2, '0')}-${String(int(28) + 1).padStart(2, '0')}`;
    const email = `parts.${dealer.toLowerCase()}@dealer.example`;
    lines.push([dealer, part, description, brand, int(500), price, pick(vat), 'EUR', date, email].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Makes pipelines that take the dealer price file as CSV into `prices` and write it out as CSV,
 * with a component running `jsCode`, the data model above (stored now) and the first reference
 * data: answers a function making one more such pipeline by name.
 */
export async function dealerPricesPipelines(services: Services, userId: string, component: { name: string; jsCode: string }) {
  const [brand] = await services.reference.brands();
  const [locale] = await services.reference.locales();
  const [productLine] = await services.reference.productLines();
  const datakinds = await services.reference.datakinds();
  const model = await services.schemas.create({ name: 'Dealer prices', jsonSchema: DATA_MODEL, userId });
  const made = await services.components.create({
    ...component,
    kind: 'instruction',
    inputs: [{ name: 'prices' }],
    outputs: [{ name: 'prices' }],
  });
  return (name: string) =>
    services.pipelines.create({
      name,
      isMaster: false,
      component: made._id,
      dataSources: [
        { dataSubKind: 'prices', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: model._id },
      ],
      dataSinks: [{ name: 'prices', format: 'CSV', target: null }],
      brand: brand?._id ?? null,
      locale: locale?._id ?? null,
      productLine: productLine?._id ?? null,
      datakind: (datakinds.find((d) => d.isDealer) ?? datakinds[0])?._id ?? null,
    });
}
