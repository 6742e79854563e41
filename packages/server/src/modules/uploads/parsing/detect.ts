import type { MimeGroup } from '@gdb/shared/reference/mimetypes';

export type DetectedFormat = 'xlsx' | 'xls' | 'xml' | 'json' | 'text' | 'binary';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** The first non-blank character after an optional BOM. */
function firstChar(bytes: Uint8Array): string {
  let i = startsWith(bytes, UTF8_BOM) ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return i < bytes.length ? String.fromCharCode(bytes[i] ?? 0) : '';
}

/** True when a sample of the bytes looks like text: no NUL and few control characters. */
function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 64 * 1024);
  let control = 0;
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 0x09 || (b > 0x0d && b < 0x20)) control++;
  }
  return control <= sample.length / 100;
}

/** What the bytes are, whatever the file's name says. */
export function detectFormat(bytes: Uint8Array): DetectedFormat {
  // Any zip archive is a workbook candidate; the excel parser checks its entries.
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'xls';
  if (!looksLikeText(bytes)) return 'binary';
  const c = firstChar(bytes);
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
