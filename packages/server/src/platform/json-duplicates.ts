// JSON.parse keeps the last of two equal keys of an object without a word: a data model sent with a
// property named twice would lose the first. This finds such a key in a JSON text already parsed.

/** A key written twice in one object: the key, and the dotted path of that object ('' for the top). */
export interface DuplicateKey {
  key: string;
  path: string;
}

interface ObjectFrame {
  kind: 'object';
  /** The frame holding it, and its key or index there. */
  parent: Frame | undefined;
  at: string;
  keys: Set<string>;
  key: string;
  expectKey: boolean;
}
interface ArrayFrame {
  kind: 'array';
  parent: Frame | undefined;
  at: string;
  index: number;
}
type Frame = ObjectFrame | ArrayFrame;

/** The dotted path of a frame, built only for the answer (building it for every frame would cost the square of the depth). */
function pathOf(frame: Frame): string {
  const parts: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) parts.push(f.at);
  return parts.reverse().join('.');
}

/** Where a value that starts now sits in the innermost open object or array. */
const segment = (top: Frame | undefined): string => (!top ? '' : top.kind === 'object' ? top.key : String(top.index));

/** The index of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let j = quote - 1; text[j] === '\\'; j--) backslashes++;
    if (backslashes % 2 === 0) return quote;
    i = quote + 1;
  }
}

/** The first key written twice in one object of a valid JSON text, or null; no recursion, so any depth is read. */
export function duplicateKey(text: string): DuplicateKey | null {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return { key, path: pathOf(top) };
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === '{') {
      stack.push({ kind: 'object', parent: top, at: segment(top), keys: new Set(), key: '', expectKey: true });
    } else if (c === '[') {
      stack.push({ kind: 'array', parent: top, at: segment(top), index: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      if (top?.kind === 'object') top.expectKey = true;
      else if (top) top.index += 1;
    }
  }
  return null;
}
