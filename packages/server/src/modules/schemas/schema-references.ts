import { isId } from '@gdb/shared/users/users.schemas';
import type { Reference } from '../access/access.service.ts';

/** The data models a JSON schema names through `$ref` (a version id, optionally with a fragment), with where: `jsonSchema.properties.a.$ref`. */
export function schemaReferences(jsonSchema: unknown): Reference[] {
  const out: Reference[] = [];
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${path}[${i}]`);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const id = key === '$ref' && typeof value === 'string' ? (value.split('#')[0] ?? '') : '';
      if (isId(id)) out.push({ path: `${path}.$ref`, kind: 'schema', id });
      else walk(value, `${path}.${key}`);
    }
  };
  walk(jsonSchema, 'jsonSchema');
  return out;
}
