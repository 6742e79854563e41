import { ParseError, type ParseLimits } from '../limits.ts';
import { ownString, runsText } from './xml.ts';

// The shared strings part (`<sst>`), read as it is inflated: each `<si>` item's text, rich text
// runs joined, in the order the cells' indexes count them.

const ITEM = /<(?:([\w.-]+):)?si\b[^>]*?(\/?)>/g;

export class SharedStringsReader {
  readonly strings: string[] = [];
  private pending = '';

  constructor(private readonly limits: ParseLimits) {}

  push(text: string): boolean {
    const xml = this.pending + text;
    ITEM.lastIndex = 0;
    let keepFrom = -1;
    let consumed = 0;
    for (let match = ITEM.exec(xml); match; match = ITEM.exec(xml)) {
      const [, prefix, closed] = match;
      if (closed) {
        this.strings.push('');
      } else {
        const close = prefix ? `</${prefix}:si>` : '</si>';
        const end = xml.indexOf(close, ITEM.lastIndex);
        if (end < 0) {
          keepFrom = match.index;
          break;
        }
        this.add(runsText(xml.slice(ITEM.lastIndex, end)));
        ITEM.lastIndex = end + close.length;
      }
      consumed = ITEM.lastIndex;
    }
    if (keepFrom < 0) {
      const last = xml.lastIndexOf('<');
      keepFrom = last >= consumed ? last : xml.length;
    }
    this.pending = xml.slice(keepFrom);
    if (this.pending.length > this.limits.maxCellChars * 8 + 1024 * 1024) {
      throw new ParseError(`The workbook holds a text longer than ${this.limits.maxCellChars} characters.`);
    }
    return true;
  }

  private add(text: string): void {
    // A text too long is kept short: it is refused when a cell of the sheet read uses it.
    this.strings.push(ownString(text.length > this.limits.maxCellChars ? text.slice(0, this.limits.maxCellChars + 1) : text));
  }
}
