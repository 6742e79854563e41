/** JSON text as the test editors show it: indented 4 spaces (docs/product.md §18.10); an empty object when nothing. */
export const jsonText = (value: unknown) => JSON.stringify(value ?? {}, null, 4);

/** The object a test editor holds, or null when its text is not a JSON object. */
export function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
