import { duplicateKey } from '../../../platform/json-duplicates.ts';
import { ParseError } from './limits.ts';
import { BigJsonInteger } from './table.ts';

// JSON.parse keeps the last of an object's keys named twice: such a text is refused, as a CSV or
// sheet header naming a field twice is. The keys written are counted against the keys the parsed
// objects hold; only when they differ is the text walked again (platform/json-duplicates.ts) to
// name the key and its item.

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

/**
 * Refuses a JSON text, already parsed as `value`, an object of which names a key twice; `where`
 * names the text (`Line 3`), else its item in the top array.
 */
export function refuseRepeatedKeys(text: string, value: unknown, where?: string): void {
  if (writtenKeys(text) === heldKeys(value)) return;
  const repeated = duplicateKey(text);
  if (!repeated) return;
  // In a top array, the object's path starts with its item's index.
  const index = text.startsWith('[') ? Number(repeated.path.split('.')[0]) : Number.NaN;
  const place = where ?? (Number.isInteger(index) && repeated.path !== '' ? `Item ${index + 1}` : 'An object of the file');
  throw new ParseError(`${place} names "${repeated.key}" more than once.`);
}
