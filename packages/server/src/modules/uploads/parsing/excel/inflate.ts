import { isAscii } from 'node:buffer';
import { Inflate } from 'pako';
import { errorMessage } from '../../../../platform/error-message.ts';
import { ParseError, type ParseLimits } from '../limits.ts';
import type { ZipEntry } from './zip.ts';

// Entries are inflated piece by piece, each piece handed on and dropped, and every byte produced
// is counted against one budget for the whole workbook: what the headers claim plays no part, so
// faked sizes, streamed entries (sizes 0 and a data descriptor) and stored entries are bounded alike.

/** Compressed bytes given to the inflater at once: a deflate stream makes at most ~1,032 times as much (16 MiB). */
const INPUT_PIECE = 16 * 1024;
/** Inflated bytes handed on at once: each piece is scanned and dropped before the next is made. */
const OUTPUT_PIECE = 64 * 1024;
/** What pako's inflater reports when its stream ends whole (`inflateEnd`'s Z_OK). */
const Z_OK = 0;
/** The ratio limit applies beyond this many inflated bytes, which any small workbook may reach. */
const RATIO_FLOOR = 16 * 1024 * 1024;

const mib = (bytes: number) => Math.round(bytes / (1024 * 1024));
const kib = (bytes: number) => Math.ceil(bytes / 1024);

/**
 * What the entries of one workbook may produce once inflated, all entries together: at most
 * `maxInflatedBytes`, and, beyond the first 16 MiB, at most `maxInflateRatio` times the compressed
 * bytes read so far. The ratio is checked as the bytes come, so a compression bomb (deflate reaches
 * ~1,000:1) is refused after a few MiB, long before the total limit.
 */
export class InflateBudget {
  private produced = 0;
  private consumed = 0;

  constructor(private readonly limits: ParseLimits) {}

  /** Counts compressed bytes handed to the inflater. */
  read(count: number): void {
    this.consumed += count;
  }

  /** Counts bytes produced; refuses the workbook past the budget. */
  spend(count: number): void {
    this.produced += count;
    const { maxInflatedBytes, maxInflateRatio } = this.limits;
    if (this.produced > maxInflatedBytes) {
      throw new ParseError(`The workbook is refused: it decompresses to more than ${mib(maxInflatedBytes)} MiB.`);
    }
    if (this.produced > RATIO_FLOOR && this.produced > this.consumed * maxInflateRatio) {
      throw new ParseError(
        `The workbook is refused: it decompresses to more than ${maxInflateRatio} times its size (${mib(this.produced)} MiB from ${kib(this.consumed)} KiB), far more than a spreadsheet does (a compression bomb?).`,
      );
    }
  }
}

function damaged(entry: ZipEntry, error: unknown): ParseError {
  if (error instanceof ParseError) return error;
  const why = errorMessage(error);
  return new ParseError(`The workbook is damaged: its part ${entry.name} cannot be decompressed (${why}).`);
}

/**
 * Inflates one entry, handing each piece produced to `onPiece` as it comes; `onPiece` returns
 * false to stop reading the entry there.
 */
function inflateEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget, onPiece: (piece: Uint8Array) => boolean): void {
  if (entry.method === 0) {
    storedEntry(bytes, entry, budget, onPiece);
    return;
  }
  if (entry.method !== 8) throw new ParseError(`The workbook's part ${entry.name} uses a compression this reader does not know.`);
  let going = true;
  // The inflater says when its stream ends, whole or not: the bytes after it (a data descriptor) are not read.
  let ended: 'whole' | 'broken' | undefined;
  const inflater = new Inflate({ raw: true, chunkSize: OUTPUT_PIECE });
  inflater.onData = (piece) => {
    if (!going || !(piece instanceof Uint8Array) || piece.length === 0) return;
    budget.spend(piece.length);
    going = onPiece(piece);
  };
  inflater.onEnd = (status) => {
    ended = status === Z_OK ? 'whole' : 'broken';
  };
  try {
    for (let at = entry.start; going && ended === undefined && at < entry.end; at += INPUT_PIECE) {
      const piece = bytes.subarray(at, Math.min(at + INPUT_PIECE, entry.end));
      budget.read(piece.length);
      inflater.push(piece, false);
    }
  } catch (error) {
    throw damaged(entry, error);
  }
  if (ended === 'broken') throw damaged(entry, new Error(inflater.msg || 'its data is not deflate'));
  if (going && ended === undefined) throw damaged(entry, new Error('its data ends early'));
}

function storedEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget, onPiece: (piece: Uint8Array) => boolean) {
  const end = Math.min(entry.end, entry.start + entry.claimedSize);
  for (let at = entry.start; at < end; at += INPUT_PIECE * 4) {
    const piece = bytes.subarray(at, Math.min(at + INPUT_PIECE * 4, end));
    budget.read(piece.length);
    budget.spend(piece.length);
    if (!onPiece(piece)) return;
  }
}

/**
 * UTF-8 text decoded piece by piece, a character cut by a piece's end carried to the next piece
 * (Node's Buffer decoding is several times faster than a streaming TextDecoder).
 */
class Utf8Pieces {
  private tail: Uint8Array | undefined;

  decode(piece: Uint8Array): string {
    const bytes = this.tail ? Buffer.concat([this.tail, piece]) : piece;
    const cut = completeLength(bytes);
    this.tail = cut < bytes.length ? bytes.slice(cut) : undefined;
    const whole = Buffer.from(bytes.buffer, bytes.byteOffset, cut);
    // ASCII text (most of a sheet's XML) copied byte for byte is faster still than decoded.
    return isAscii(whole) ? whole.toString('latin1') : whole.toString('utf8');
  }

  /** What is left at the end: a cut character, shown as U+FFFD. */
  end(): string {
    return this.tail ? Buffer.from(this.tail).toString('utf8') : '';
  }
}

/** The length of a run of bytes without the start of a UTF-8 character its end cuts. */
function completeLength(bytes: Uint8Array): number {
  let start = bytes.length - 1;
  while (start >= 0 && bytes.length - start < 4 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  if (start < 0) return bytes.length;
  const lead = bytes[start] ?? 0;
  const needs = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < needs ? start : bytes.length;
}

/** The most a part read whole may hold: a workbook's styles run to a few MiB at most. */
const MAX_WHOLE_PART = 32 * 1024 * 1024;

/** An entry's whole text (for the small parts: workbook, relationships, styles), refused past 32 MiB. */
export function entryText(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget): string {
  let text = '';
  streamEntryText(bytes, entry, budget, (piece) => {
    text += piece;
    if (text.length > MAX_WHOLE_PART) {
      throw new ParseError(`The workbook is refused: its part ${entry.name} holds more than ${mib(MAX_WHOLE_PART)} MiB.`);
    }
    return true;
  });
  return text;
}

/** An entry's text handed on in pieces as it is inflated; `onText` returns false to stop. */
export function streamEntryText(
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: InflateBudget,
  onText: (text: string) => boolean,
): void {
  const decoder = new Utf8Pieces();
  let going = true;
  inflateEntry(bytes, entry, budget, (piece) => {
    going = onText(decoder.decode(piece));
    return going;
  });
  if (going) onText(decoder.end());
}
