// Small helpers for the workbook's XML parts, read as text without building a document: attribute
// values, element texts, XML entities and character references, and OOXML's `_xHHHH_` escapes.

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(lt|gt|amp|quot|apos));/g;
const OOXML_ESCAPE = /_x([0-9a-fA-F]{4})_/g;

function codePoint(n: number, whole: string): string {
  return n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : whole;
}

/** XML text with its entities and character references decoded. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, hex?: string, dec?: string, name?: string) => {
    if (hex) return codePoint(Number.parseInt(hex, 16), whole);
    if (dec) return codePoint(Number.parseInt(dec, 10), whole);
    return (name && NAMED[name]) ?? whole;
  });
}

/**
 * A cell's text as the sheet shows it: XML entities decoded, then OOXML's escapes of characters
 * XML cannot hold (`_x000D_` is a carriage return, `_x005F_` an underscore written before one).
 */
export function decodeText(text: string): string {
  const decoded = decodeEntities(text);
  if (!decoded.includes('_x')) return decoded;
  return decoded.replace(OOXML_ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const attributePatterns = new Map<string, RegExp>();
const needles = new Map<string, string>();

/** An attribute's decoded value in an element's attribute text (`r="A1" s="3"`), or undefined. */
export function attribute(attributes: string, name: string): string | undefined {
  // The way every writer puts it (` name="value"`) found without a regular expression.
  let needle = needles.get(name);
  if (needle === undefined) {
    needle = ` ${name}="`;
    needles.set(name, needle);
  }
  const start = attributes.indexOf(needle);
  if (start >= 0) {
    const from = start + needle.length;
    const end = attributes.indexOf('"', from);
    if (end >= 0) return decodeEntities(attributes.slice(from, end));
  }
  if (!attributes.includes(name)) return undefined;
  let pattern = attributePatterns.get(name);
  if (!pattern) {
    pattern = new RegExp(`(?:^|\\s)${name.replace(/[.:]/g, '\\$&')}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attributePatterns.set(name, pattern);
  }
  const match = pattern.exec(attributes);
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? '');
}

/**
 * The start tags of elements with a local name (any namespace prefix), with their attribute text.
 * Attribute texts stop at `<` as well as `>`, so that a search from each `<` ends at the next one.
 */
export function* startTags(xml: string, localName: string): Generator<string> {
  const pattern = new RegExp(`<(?:[\\w.-]+:)?${localName}(\\s[^<>]*)?\\/?>`, 'g');
  for (const match of xml.matchAll(pattern)) yield match[1] ?? '';
}

const TEXT_RUN = /<(?:[\w.-]+:)?t(?:\s[^<>]*)?(?:\/>|>([^<]*)<\/(?:[\w.-]+:)?t>)/g;
const PHONETIC_START = /<(?:[\w.-]+:)?rPh\b/g;
const PHONETIC_END = /<\/(?:[\w.-]+:)?rPh>/g;

/** A string item without its phonetic hints (`<rPh>`): each hint's end searched from its start, an unclosed hint dropped to the end. */
function withoutPhonetic(inner: string): string {
  let out = '';
  let pos = 0;
  for (;;) {
    PHONETIC_START.lastIndex = pos;
    const start = PHONETIC_START.exec(inner);
    if (!start) return out + inner.slice(pos);
    out += inner.slice(pos, start.index);
    PHONETIC_END.lastIndex = start.index;
    const end = PHONETIC_END.exec(inner);
    if (!end) return out;
    pos = end.index + end[0].length;
  }
}

/** The text of a string item (`<si>`, `<is>`): its `<t>` runs joined, rich text included, phonetic hints left out. */
export function runsText(inner: string): string {
  // One plain run, as most items are: `<t>text</t>`.
  if (inner.startsWith('<t>') && inner.endsWith('</t>') && inner.indexOf('<', 3) === inner.length - 4) {
    return decodeText(inner.slice(3, -4));
  }
  const body = inner.includes('rPh') ? withoutPhonetic(inner) : inner;
  let text = '';
  for (const match of body.matchAll(TEXT_RUN)) text += match[1] ?? '';
  return decodeText(text);
}

/**
 * A copy of a text cut out of a larger one: V8 keeps a long substring as a view of its source, and
 * a kept cell text would keep the whole piece of XML it came from.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}
