/**
 * The data models the screens read by name to draw their forms (docs/product.md §18.2): seeded
 * and upgraded by migrations, locked, changed by super-admins only.
 */
export const SYSTEM_SCHEMA_NAMES = [
  'rt-sdk-schema',
  'rt-pipeline',
  'rt-component',
  'rt-source-endpoint',
  'rt-endpoint-info',
  'rt-listener-info',
] as const;

const SYSTEM = new Set<string>(SYSTEM_SCHEMA_NAMES);

/** True for the name of a system data model (names are compared ignoring case, as data model names are). */
export function isSystemSchemaName(name: unknown): boolean {
  return typeof name === 'string' && SYSTEM.has(name.toLowerCase());
}
