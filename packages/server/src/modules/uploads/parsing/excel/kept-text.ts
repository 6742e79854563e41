import type { ParseError } from '../limits.ts';

/**
 * The text of a part given piece by piece, for a reader that scans it element by element: what
 * the last scan left unfinished (an element cut by the piece's end) is kept for the next one.
 * Kept text is scanned again only once it has doubled, so an element longer than a piece (a long
 * cell, or a crafted one that never ends) costs a few scans of its text, not one for every piece;
 * beyond `max` characters the part is refused.
 */
export class KeptText {
  private kept = '';
  private scanAt = 0;

  constructor(
    private readonly max: number,
    private readonly tooLong: () => ParseError,
  ) {}

  /** The text to scan now (the kept text and the new piece), or undefined to wait for more; `last` at the part's end. */
  take(piece: string, last = false): string | undefined {
    if (!last && this.kept.length > 0 && this.kept.length + piece.length < this.scanAt) {
      this.kept += piece;
      if (this.kept.length > this.max) throw this.tooLong();
      return undefined;
    }
    const text = this.kept + piece;
    this.kept = '';
    return text;
  }

  /** Keeps a scan's unfinished end, `text` from `from` on. */
  keep(text: string, from: number): void {
    this.kept = from < text.length ? text.slice(from) : '';
    this.scanAt = this.kept.length * 2;
    if (this.kept.length > this.max) throw this.tooLong();
  }
}
