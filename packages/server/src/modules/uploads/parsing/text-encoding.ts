import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { ParseError } from './limits.ts';
import type { Note } from './table.ts';

/** A file's text and the encoding it was read in, with the line the upload's log shows about it. */
export interface DecodedText {
  text: string;
  /** The encoding's name as people know it: `UTF-8`, `UTF-16 LE`, `Windows-1252`, `ISO-8859-1`… */
  encoding: string;
  note: Note;
}

type Bom = { label: 'utf-8' | 'utf-16le' | 'utf-16be'; name: string; length: number };

const BOMS: ReadonlyArray<{ bytes: readonly number[]; bom: Bom }> = [
  { bytes: [0xef, 0xbb, 0xbf], bom: { label: 'utf-8', name: 'UTF-8', length: 3 } },
  { bytes: [0xff, 0xfe], bom: { label: 'utf-16le', name: 'UTF-16 LE', length: 2 } },
  { bytes: [0xfe, 0xff], bom: { label: 'utf-16be', name: 'UTF-16 BE', length: 2 } },
];

/** The byte order mark the bytes start with, if any. */
export function bomOf(bytes: Uint8Array): Bom | null {
  return BOMS.find(({ bytes: mark }) => mark.every((b, i) => bytes[i] === b))?.bom ?? null;
}

/** The UTF-16 an XML file without a byte order mark is written in, seen from its first `<` (XML 1.0, appendix F). */
export function xmlUtf16Of(bytes: Uint8Array): Bom | null {
  if (bytes[0] === 0x3c && bytes[1] === 0) return { label: 'utf-16le', name: 'UTF-16 LE', length: 0 };
  if (bytes[0] === 0 && bytes[1] === 0x3c) return { label: 'utf-16be', name: 'UTF-16 BE', length: 0 };
  return null;
}

/** The encoding an XML declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`), read from its ASCII bytes. */
function declaredXmlEncoding(bytes: Uint8Array): string | null {
  const start = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 256)).toString('latin1');
  return (
    /^(?:\uFEFF|\u00EF\u00BB\u00BF)?\s*<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:-]*)["']/.exec(start)?.[1] ?? null
  );
}

function decoderOf(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true });
  } catch {
    return null;
  }
}

// Windows-1252's characters at 0x80–0x9F (the five it leaves undefined stay C1 controls, as WHATWG
// maps them); Node's own decoder for it reads those bytes as ISO-8859-1 does.
const CP1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

function strictDecode(bytes: Uint8Array, label: string, name: string): string {
  const decoder = decoderOf(label);
  // ISO-8859-1, Latin-1, ASCII and Windows-1252 are one encoding to WHATWG.
  if (decoder?.encoding === 'windows-1252') return decodeWindows1252(bytes);
  try {
    return (decoder ?? new TextDecoder(label)).decode(bytes);
  } catch {
    throw new ParseError(`The file is not valid ${name} text.`);
  }
}

const info = (message: string): Note => ({ level: 'info', message });

/**
 * The text of a data file in its own encoding: the one its byte order mark says (UTF-8, UTF-16 LE
 * or BE), else for XML the one its declaration names, else UTF-8 when the bytes are valid UTF-8,
 * else Windows-1252 (what spreadsheet programs write on Western European systems). Never replaces
 * a character in silence: a file its encoding cannot read is refused.
 */
export function decodeText(bytes: Uint8Array, options: { xml?: boolean } = {}): DecodedText {
  const bom = bomOf(bytes) ?? (options.xml ? xmlUtf16Of(bytes) : null);
  if (bom) {
    const text = strictDecode(bytes.subarray(bom.length), bom.label, bom.name);
    const why = bom.length > 0 ? 'the file starts with its byte order mark' : 'the XML file starts with it';
    return { text, encoding: bom.name, note: info(`Read as ${bom.name} (${why}).`) };
  }
  const declared = options.xml ? declaredXmlEncoding(bytes) : null;
  if (declared && !/^utf-?8$/i.test(declared)) return decodeDeclared(bytes, declared);
  if (isUtf8(bytes)) return { text: new TextDecoder().decode(bytes), encoding: 'UTF-8', note: info('Read as UTF-8.') };
  if (declared) throw new ParseError('The file is not valid UTF-8 text, the encoding its XML declaration names.');
  const text = strictDecode(bytes, 'windows-1252', 'Windows-1252');
  const note: Note = { level: 'warn', message: 'Read as Windows-1252 (the file is not valid UTF-8).' };
  return { text, encoding: 'Windows-1252', note };
}

function decodeDeclared(bytes: Uint8Array, declared: string): DecodedText {
  const decoder = decoderOf(declared);
  if (!decoder) throw new ParseError(`The XML declaration names an encoding that cannot be read: ${declared}.`);
  const name = declared.toUpperCase();
  try {
    const text = decoder.encoding === 'windows-1252' ? decodeWindows1252(bytes) : decoder.decode(bytes);
    return { text, encoding: name, note: info(`Read as ${name} (the encoding the XML declaration names).`) };
  } catch {
    throw new ParseError(`The file is not valid ${name} text, the encoding its XML declaration names.`);
  }
}
