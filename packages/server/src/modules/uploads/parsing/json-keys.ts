import { ParseError } from './limits.ts';
import { BigJsonInteger } from './table.ts';

// JSON.parse keeps the last of an object's keys named twice: such a text is refused, as a CSV or
// sheet header naming a field twice is. The keys written are counted against the keys the parsed
// objects hold; only when they differ is the text walked again to name the key and its item.

/**
 * What a walk of the text looks at: strings, and the brackets that open and close objects and
 * arrays. Nothing between them (numbers, literals, commas, colons) holds a quote, so a walk from
 * match to match stays in step with the text.
 */
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|[{}[\]]/g;

/** How many keys the objects of a parsed value hold, counted without recursion. */
function heldKeys(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || node instanceof BigJsonInteger) continue;
    const children = Object.values(node);
    if (!Array.isArray(node)) count += children.length;
    for (const child of children) stack.push(child);
  }
  return count;
}

/** How many keys the text writes: strings followed by a colon. */
function writtenKeys(text: string): number {
  let count = 0;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    if (match[0].length > 1 && colonAfter(text, TOKEN.lastIndex)) count++;
  }
  return count;
}

/** The blanks JSON allows between tokens. */
const BLANKS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Whether a colon follows `at`, blanks aside: the string before it is a key. */
function colonAfter(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && BLANKS.has(text.charCodeAt(i))) i++;
  return text.charAt(i) === ':';
}

/** The first key an object of a (valid) JSON text names twice, with the item of the top array it is in (1-based). */
function firstRepeated(text: string): { key: string; item: number | undefined } | undefined {
  const objects: (Set<string> | null)[] = [];
  let inArray = false;
  let item = 0;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match; match = TOKEN.exec(text)) {
    const token = match[0];
    if (token === '{' || token === '[') {
      if (objects.length === 0) inArray = token === '[';
      else if (objects.length === 1 && inArray) item++;
      objects.push(token === '{' ? new Set() : null);
    } else if (token === '}' || token === ']') objects.pop();
    else {
      const keys = objects.at(-1);
      if (!keys || !colonAfter(text, TOKEN.lastIndex)) continue;
      const key = String(JSON.parse(token));
      if (keys.has(key)) return { key, item: inArray ? item : undefined };
      keys.add(key);
    }
  }
  return undefined;
}

/**
 * Refuses a JSON text, already parsed as `value`, an object of which names a key twice; `where`
 * names the text (`Line 3`), else its item in the top array.
 */
export function refuseRepeatedKeys(text: string, value: unknown, where?: string): void {
  if (writtenKeys(text) === heldKeys(value)) return;
  const repeated = firstRepeated(text);
  if (!repeated) return;
  const place = where ?? (repeated.item === undefined ? 'An object of the file' : `Item ${repeated.item}`);
  throw new ParseError(`${place} names "${repeated.key}" more than once.`);
}
