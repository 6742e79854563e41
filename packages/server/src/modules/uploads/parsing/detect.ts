import type { MimeGroup } from '@gdb/shared/reference/mimetypes';
import { bomOf, xmlUtf16Of } from './text-encoding.ts';

export type DetectedFormat = 'xlsx' | 'xls' | 'xml' | 'json' | 'text' | 'binary';

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

const SAMPLE_BYTES = 64 * 1024;

/**
 * The start of the file as characters: decoded from UTF-16 when a byte order mark (or an XML
 * start in UTF-16) says so, else one character per byte, which is enough to tell text from binary
 * in UTF-8 and the single-byte encodings alike.
 */
function sampleOf(bytes: Uint8Array): string {
  const utf16 = (bomOf(bytes) ?? xmlUtf16Of(bytes))?.label;
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  if (utf16 === 'utf-16le' || utf16 === 'utf-16be') return new TextDecoder(utf16).decode(sample.subarray(0, sample.length & ~1));
  const text = Buffer.from(sample.buffer, sample.byteOffset, sample.byteLength).toString('latin1');
  return utf16 === 'utf-8' ? text.slice(3) : text;
}

/** The first non-blank character. */
function firstChar(sample: string): string {
  return /[^ \t\r\n\uFEFF]/.exec(sample)?.[0] ?? '';
}

/**
 * True when the sample looks like text: few control characters, NUL among them (a text with a
 * stray NUL is read as text, and its reader names the NUL).
 */
function looksLikeText(sample: string): boolean {
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c < 0x09 || (c > 0x0d && c < 0x20)) control++;
  }
  return control <= sample.length / 100;
}

/** The second byte of a BOF record's type (0x0009, 0x0209, 0x0409) and the BIFF version it starts. */
const BIFF_VERSIONS = new Map([
  [0x00, 2],
  [0x02, 3],
  [0x04, 4],
]);

/** The BIFF version (2, 3 or 4) of a bare Excel 2.0–4.0 workbook, told by its first record (BOF); undefined otherwise. */
export function oldBiffVersion(bytes: Uint8Array): number | undefined {
  if (bytes.length < 8 || bytes[0] !== 0x09) return undefined;
  const version = BIFF_VERSIONS.get(bytes[1] ?? -1);
  const size = (bytes[2] ?? 0) | ((bytes[3] ?? 0) << 8);
  return version !== undefined && size >= 4 && size <= 16 ? version : undefined;
}

/** What the bytes are, whatever the file's name says. */
export function detectFormat(bytes: Uint8Array): DetectedFormat {
  // Any zip archive is a workbook candidate; the excel parser checks its entries.
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'xls';
  // An Excel 2.0–4.0 workbook (BIFF2–4) is a stream of records: its reader names it as a format not read.
  if (oldBiffVersion(bytes) !== undefined) return 'xls';
  const sample = sampleOf(bytes);
  if (!looksLikeText(sample)) return 'binary';
  const c = firstChar(sample);
  if (c === '<') return 'xml';
  if (c === '[' || c === '{') return 'json';
  return 'text';
}

/** The detected formats a data source's content type group accepts. */
export function formatsOf(group: MimeGroup): readonly DetectedFormat[] {
  switch (group) {
    case 'csv':
      return ['text'];
    case 'excel':
      return ['xlsx', 'xls'];
    case 'xml':
      return ['xml'];
    case 'json':
      return ['json'];
  }
}
