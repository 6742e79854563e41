const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value preview is cut past this many characters: the first and last halves around an ellipsis (docs/product.md §18.10). */
const PREVIEW = 200;

function typeOf(schema: unknown, depth: number): string {
  if (!isObject(schema)) return 'any';
  if (depth > 6) return '…';
  if (isObject(schema.properties)) {
    const fields = Object.entries(schema.properties).map(([k, v]) => `${k}: ${typeOf(v, depth + 1)}`);
    return `{${fields.join(', ')}}`;
  }
  if (schema.type === 'array') return `${typeOf(schema.items, depth + 1)}[]`;
  if (Array.isArray(schema.enum)) return schema.enum.map((e) => JSON.stringify(e)).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (typeof schema.type === 'string') return schema.type;
  return 'any';
}

/** A data model as one line of text for a port of the diagram, cut to 200 characters. */
export function schemaText(jsonSchema: unknown): string {
  const text = typeOf(jsonSchema, 0);
  return text.length <= PREVIEW ? text : `${text.slice(0, PREVIEW / 2)}…${text.slice(-PREVIEW / 2)}`;
}
