import { ParseError, type ParseLimits } from '../limits.ts';
import { KeptText } from './kept-text.ts';
import { ownString, runsText } from './xml.ts';

// The shared strings part (`<sst>`), read as it is inflated: each `<si>` item's text, rich text
// runs joined, in the order the cells' indexes count them. Items are found with plain searches,
// each from where the last one ended, so no text is searched twice within a scan.

const SLASH = 0x2f;
const COLON = 0x3a;
/** Characters that end an element's name: blanks, `/`, `>`, and `<` (the next element: names never overlap). */
const NAME_END = new Set([0x20, 0x09, 0x0a, 0x0d, SLASH, 0x3e, 0x3c]);
/** Longest element name looked at (with its prefix): names are short; a longer run is no item. */
const MAX_NAME = 64;

/** The prefix (with its colon, '' for none) of the `si` element whose tag opens at `open`, or undefined for another element. */
function itemPrefix(xml: string, open: number): string | undefined {
  let end = open + 1;
  const last = Math.min(xml.length, open + 1 + MAX_NAME);
  while (end < last && !NAME_END.has(xml.charCodeAt(end))) end++;
  let local = open + 1;
  for (let i = open + 1; i < end; i++) if (xml.charCodeAt(i) === COLON) local = i + 1;
  if (end - local !== 2 || xml.charCodeAt(local) !== 0x73 || xml.charCodeAt(local + 1) !== 0x69) return undefined;
  return end < xml.length ? xml.slice(open + 1, local) : undefined;
}

export class SharedStringsReader {
  readonly strings: string[] = [];
  private readonly kept: KeptText;

  constructor(private readonly limits: ParseLimits) {
    this.kept = new KeptText(
      limits.maxCellChars * 8 + 1024 * 1024,
      () => new ParseError(`The workbook holds a text longer than ${limits.maxCellChars} characters.`),
    );
  }

  push(text: string): boolean {
    const xml = this.kept.take(text);
    if (xml !== undefined) this.scan(xml);
    return true;
  }

  /** Reads what was kept at the part's end. */
  end(): void {
    const xml = this.kept.take('', true);
    if (xml !== undefined) this.scan(xml);
  }

  private scan(xml: string): void {
    this.kept.keep(xml, this.items(xml));
  }

  /** Reads the items of a text; answers where an item the text cuts starts (its length when none). */
  private items(xml: string): number {
    let pos = 0;
    for (;;) {
      const open = xml.indexOf('<', pos);
      if (open < 0) return xml.length;
      const prefix = itemPrefix(xml, open);
      if (prefix === undefined) {
        // Another element, or a name the text cuts: kept when it may still be an item.
        if (xml.length - open <= MAX_NAME + 1 && !xml.includes('>', open)) return open;
        pos = open + 1;
        continue;
      }
      const close = xml.indexOf('>', open);
      if (close < 0) return open;
      if (xml.charCodeAt(close - 1) === SLASH) {
        this.strings.push('');
        pos = close + 1;
        continue;
      }
      const endTag = `</${prefix}si>`;
      const end = xml.indexOf(endTag, close + 1);
      if (end < 0) return open;
      this.add(runsText(xml.slice(close + 1, end)));
      pos = end + endTag.length;
    }
  }

  private add(text: string): void {
    // A text too long is kept short: it is refused when a cell of the sheet read uses it.
    this.strings.push(ownString(text.length > this.limits.maxCellChars ? text.slice(0, this.limits.maxCellChars + 1) : text));
  }
}
