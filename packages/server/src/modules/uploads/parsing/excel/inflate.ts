import { Inflate } from 'fflate';
import { ParseError, type ParseLimits } from '../limits.ts';
import type { ZipEntry } from './zip.ts';

// Entries are inflated piece by piece, each piece handed on and dropped, and every byte produced
// is counted against one budget for the whole workbook: what the headers claim plays no part, so
// faked sizes, streamed entries (sizes 0 and a data descriptor) and stored entries are bounded alike.

/** Compressed bytes given to the inflater at once: a deflate stream makes at most ~1,032 times as much. */
const INPUT_PIECE = 8 * 1024;
/** The ratio limit applies beyond this many inflated bytes, which any small workbook may reach. */
const RATIO_FLOOR = 16 * 1024 * 1024;

/** The bytes the entries of one workbook may produce once inflated, all entries together. */
export class InflateBudget {
  private produced = 0;
  readonly bytes: number;

  constructor(fileSize: number, limits: ParseLimits) {
    this.bytes = Math.min(limits.maxInflatedBytes, Math.max(RATIO_FLOOR, fileSize * limits.maxInflateRatio));
  }

  /** Counts bytes produced; refuses the workbook past the budget. */
  spend(count: number): void {
    this.produced += count;
    if (this.produced > this.bytes) {
      const mib = Math.round(this.bytes / (1024 * 1024));
      throw new ParseError(
        `The workbook is refused: it decompresses to more than ${mib} MiB, more than a spreadsheet of its size holds (a compression bomb?).`,
      );
    }
  }
}

/** Whether fflate's inflater has read its stream's last block (its state, which it does not otherwise tell). */
function streamEnded(inflater: Inflate): boolean {
  const state: unknown = Reflect.get(inflater, 's');
  return typeof state === 'object' && state !== null && Boolean(Reflect.get(state, 'f')) && !Reflect.get(state, 'l');
}

function damaged(entry: ZipEntry, error: unknown): ParseError {
  if (error instanceof ParseError) return error;
  const why = error instanceof Error ? error.message : String(error);
  return new ParseError(`The workbook is damaged: its part ${entry.name} cannot be decompressed (${why}).`);
}

/**
 * Inflates one entry, handing each piece produced to `onPiece` as it comes; `onPiece` returns
 * false to stop reading the entry there.
 */
export function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: InflateBudget,
  onPiece: (piece: Uint8Array) => boolean,
): void {
  if (entry.method === 0) {
    storedEntry(bytes, entry, budget, onPiece);
    return;
  }
  if (entry.method !== 8) throw new ParseError(`The workbook's part ${entry.name} uses a compression this reader does not know.`);
  let going = true;
  const inflater = new Inflate((piece) => {
    if (!going || piece.length === 0) return;
    budget.spend(piece.length);
    going = onPiece(piece);
  });
  try {
    for (let at = entry.start; going && at < entry.end && !streamEnded(inflater); at += INPUT_PIECE) {
      inflater.push(bytes.subarray(at, Math.min(at + INPUT_PIECE, entry.end)));
    }
    if (going && !streamEnded(inflater)) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    throw damaged(entry, error);
  }
  if (going && !streamEnded(inflater)) throw damaged(entry, new Error('its data ends early'));
}

function storedEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget, onPiece: (piece: Uint8Array) => boolean) {
  const end = Math.min(entry.end, entry.start + entry.claimedSize);
  for (let at = entry.start; at < end; at += INPUT_PIECE * 8) {
    const piece = bytes.subarray(at, Math.min(at + INPUT_PIECE * 8, end));
    budget.spend(piece.length);
    if (!onPiece(piece)) return;
  }
}

/** An entry's whole text (for the small parts: workbook, relationships, styles). */
export function entryText(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget): string {
  const decoder = new TextDecoder();
  let text = '';
  inflateEntry(bytes, entry, budget, (piece) => {
    text += decoder.decode(piece, { stream: true });
    return true;
  });
  return text + decoder.decode();
}

/** An entry's text handed on in pieces as it is inflated; `onText` returns false to stop. */
export function streamEntryText(
  bytes: Uint8Array,
  entry: ZipEntry,
  budget: InflateBudget,
  onText: (text: string) => boolean,
): void {
  const decoder = new TextDecoder();
  let going = true;
  inflateEntry(bytes, entry, budget, (piece) => {
    going = onText(decoder.decode(piece, { stream: true }));
    return going;
  });
  if (going) onText(decoder.decode());
}
