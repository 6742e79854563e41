// A data model for tests: every node type the editor knows, as a JSON schema.
import type { SchemaNode } from './schema-nodes.ts';

export const DEALER = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  required: ['dealerCode', 'name'],
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    name: { type: 'string', minLength: 1 },
    vehicles: { type: 'integer', minimum: 0, enum: [1, 2] },
    tags: { type: 'array', items: { type: 'string' }, minItems: 0 },
    address: { $ref: '0190a1b2-0000-7000-8000-000000000001#/definitions/address' },
    either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    never: { not: { type: 'number' } },
    maybe: { type: ['string', 'null'] },
  },
  dependencies: { name: ['dealerCode'] },
  definitions: { code: { type: 'string', format: 'email' } },
};

/** The node reached by following child names from the root. */
export function at(root: SchemaNode, ...names: string[]): SchemaNode {
  let node = root;
  for (const name of names) {
    const next = node.children.find((c) => c.name === name);
    if (!next) throw new Error(`no ${name} under ${node.name}`);
    node = next;
  }
  return node;
}
