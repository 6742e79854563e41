// The components, data models and rows the runtime benchmark runs.
import type { BuiltApp } from '../../packages/server/src/app.ts';

export interface Row {
  id: number;
  name: string;
  price: number;
  qty: number;
  country: string;
}

export interface Mapped {
  id: number;
  name: string;
  country: string;
  total: number;
}

/** Deterministic rows, about 90 bytes each as JSON. */
export function makeRows(count: number): Row[] {
  const countries = ['fr', 'de', 'it', 'es', 'nl'];
  return Array.from({ length: count }, (_, i) => ({
    id: i,
    name: `  Product ${i}  `,
    price: ((i * 37) % 1000) / 10 + 0.99,
    qty: i % 13,
    country: countries[i % countries.length] ?? 'fr',
  }));
}

// The two instruction bodies, and the same mapping written as plain functions.
const CLEAN_CODE =
  'const r = ctx.input.row;\nctx.output.row = { ...r, name: r.name.trim().toUpperCase(), country: r.country.toUpperCase() };';
const TOTAL_CODE =
  'const r = ctx.input.row;\nctx.output.row = { id: r.id, name: r.name, country: r.country, total: Math.round(r.price * r.qty * 100) / 100 };';

export const clean = (r: Row): Row => ({ ...r, name: r.name.trim().toUpperCase(), country: r.country.toUpperCase() });
export const total = (r: Row): Mapped => ({
  id: r.id,
  name: r.name,
  country: r.country,
  total: Math.round(r.price * r.qty * 100) / 100,
});

/** A trivial instruction (for latency) and a forEach mapping rows through two instructions. */
export async function createComponents(services: BuiltApp['services']) {
  const rowModel = await services.schemas.create({
    name: 'Bench row',
    jsonSchema: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        price: { type: 'number' },
        qty: { type: 'integer', minimum: 0 },
        country: { type: 'string', minLength: 2, maxLength: 2 },
      },
      required: ['id', 'name', 'price', 'qty', 'country'],
    },
  });
  const mappedModel = await services.schemas.create({
    name: 'Bench mapped row',
    jsonSchema: {
      type: 'object',
      properties: { id: { type: 'integer' }, name: { type: 'string' }, country: { type: 'string' }, total: { type: 'number' } },
      required: ['id', 'name', 'country', 'total'],
    },
  });
  const trivial = await services.components.create({
    name: 'Bench trivial',
    kind: 'instruction',
    inputs: [{ name: 'text' }],
    outputs: [{ name: 'text' }],
    jsCode: 'ctx.output.text = ctx.input.text;',
  });
  const cleanC = await services.components.create({
    name: 'Bench clean',
    kind: 'instruction',
    inputs: [{ name: 'row', inputSchema: rowModel._id }],
    outputs: [{ name: 'row', outputSchema: rowModel._id }],
    jsCode: CLEAN_CODE,
  });
  const totalC = await services.components.create({
    name: 'Bench total',
    kind: 'instruction',
    inputs: [{ name: 'row', inputSchema: rowModel._id }],
    outputs: [{ name: 'row', outputSchema: mappedModel._id }],
    jsCode: TOTAL_CODE,
  });
  const mapper = await services.components.create({
    name: 'Bench mapper',
    kind: 'forEach',
    inputs: [{ name: 'rows', inputSchema: rowModel._id }],
    outputs: [{ name: 'rows', outputSchema: mappedModel._id }],
    instances: [
      { name: 'clean', instanceOf: cleanC._id },
      { name: 'total', instanceOf: totalC._id },
    ],
    links: [
      { name: 'in', fromInstance: '', fromPort: 'rows', toInstance: 'clean', toPort: 'row' },
      { name: 'mid', fromInstance: 'clean', fromPort: 'row', toInstance: 'total', toPort: 'row' },
      { name: 'out', fromInstance: 'total', fromPort: 'row', toInstance: '', toPort: 'rows' },
    ],
  });
  return { trivial, mapper };
}
