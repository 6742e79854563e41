const LF = 0x0a;
const QUOTE = 0x22;

/**
 * Just after the header line, with what stands before it and every slice must repeat: Excel's
 * `sep=;` line and blank lines. -1 when the header's end is not a line feed (a lone CR ends lines
 * in that file, and a slice's copy of the header would take a record with it).
 */
function headerEndOf(buf: Buffer, boundaryFrom: (from: number) => number): number {
  let start = 0;
  for (let end = boundaryFrom(0); end !== -1; end = boundaryFrom(end)) {
    const line = buf.toString('latin1', start, end);
    if (/\r(?!\n$)/.test(line)) return -1;
    const preamble =
      start === 0 ? /^(?:\u00EF\u00BB\u00BF)?sep=[^\r\n]\r?\n$/i.test(line) || line.trim() === '' : line.trim() === '';
    if (!preamble) return end;
    start = end;
  }
  return -1;
}

/**
 * Cuts CSV bytes into up to `parts` slices of whole records, each a CSV file of its own: the first
 * slice starts with the header line and every other one gets a copy of it. A cut falls on a line
 * feed outside quoted text (an even number of quotes before it); the parse of every slice then
 * tells whether the cut was good (the CSV reader reports an unclosed quote otherwise). Answers null when
 * the bytes cannot be cut: no header line, no line feed outside quotes, or too few records.
 * Line feeds and quotes are single bytes that never occur inside a UTF-8 multi-byte character: the
 * bytes must be UTF-8 (the pool cuts no other encoding). A record may end with a lone CR too, but
 * a cut falls only after a line feed, which always ends a record outside quotes.
 */
export function splitCsv(bytes: Uint8Array, parts: number): Uint8Array[] | null {
  if (parts < 2) return null;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let nextQuote = buf.indexOf(QUOTE);
  let odd = false;
  /** Counts the quotes before `to`; each quote is visited once however often this is called. */
  const advance = (to: number) => {
    while (nextQuote !== -1 && nextQuote < to) {
      odd = !odd;
      nextQuote = buf.indexOf(QUOTE, nextQuote + 1);
    }
  };
  /** Just after the first line feed at or after `from` outside quotes, or -1. */
  const boundaryFrom = (from: number): number => {
    for (let lf = buf.indexOf(LF, from); lf !== -1; lf = buf.indexOf(LF, lf + 1)) {
      advance(lf);
      if (!odd) return lf + 1;
    }
    return -1;
  };

  const headerEnd = headerEndOf(buf, boundaryFrom);
  if (headerEnd === -1 || headerEnd >= buf.length) return null;
  const cuts = [0];
  for (let k = 1; k < parts; k++) {
    const target = Math.max(headerEnd, (cuts.at(-1) ?? 0) + 1, Math.floor((buf.length * k) / parts));
    const cut = boundaryFrom(target);
    if (cut === -1 || cut >= buf.length) break;
    cuts.push(cut);
  }
  if (cuts.length < 2) return null;
  cuts.push(buf.length);
  const header = buf.subarray(0, headerEnd);
  return cuts.slice(0, -1).map((start, i) => {
    const end = cuts[i + 1] ?? buf.length;
    if (i === 0) return new Uint8Array(buf.subarray(0, end));
    const slice = new Uint8Array(header.length + end - start);
    slice.set(header, 0);
    slice.set(buf.subarray(start, end), header.length);
    return slice;
  });
}
