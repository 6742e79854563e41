import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect.ts';
import { decodeText } from './text-encoding.ts';

const utf16le = (s: string) => new Uint8Array(Buffer.from(`\uFEFF${s}`, 'utf16le'));
const utf16be = (s: string) => new Uint8Array(Buffer.from(`\uFEFF${s}`, 'utf16le').swap16());

describe('decodeText', () => {
  it('reads UTF-8 with or without its byte order mark, and says so', () => {
    expect(decodeText(new TextEncoder().encode('\uFEFFa,\u00e9'))).toMatchObject({ text: 'a,\u00e9', encoding: 'UTF-8' });
    expect(decodeText(new TextEncoder().encode('a,\u00e9')).note).toEqual({ level: 'info', message: 'Read as UTF-8.' });
  });

  it('reads UTF-16 LE and BE by their byte order mark, and refuses a broken one', () => {
    expect(decodeText(utf16le('a\t\u6771\u{1F600}'))).toMatchObject({ text: 'a\t\u6771\u{1F600}', encoding: 'UTF-16 LE' });
    expect(decodeText(utf16be('a\t\u00e9')).text).toBe('a\t\u00e9');
    expect(() => decodeText(Uint8Array.from([0xff, 0xfe, 0x41]))).toThrow('The file is not valid UTF-16 LE text.');
  });

  it('reads bytes that are not UTF-8 as Windows-1252, with a warning', () => {
    const out = decodeText(Uint8Array.from([0x80, 0x20, 0xe9, 0x93, 0x78, 0x94, 0x9f]));
    expect(out.text).toBe('\u20ac \u00e9\u201cx\u201d\u0178');
    expect(out.note).toEqual({ level: 'warn', message: 'Read as Windows-1252 (the file is not valid UTF-8).' });
  });

  it('reads XML in the encoding its declaration names, or in UTF-16 seen from its first bytes', () => {
    const latin = Uint8Array.from([
      ...Buffer.from('<?xml version="1.0" encoding="ISO-8859-15"?><a>'),
      0xa4,
      0xe9,
      ...Buffer.from('</a>'),
    ]);
    expect(decodeText(latin, { xml: true })).toMatchObject({
      text: '<?xml version="1.0" encoding="ISO-8859-15"?><a>\u20ac\u00e9</a>',
      encoding: 'ISO-8859-15',
    });
    expect(decodeText(new Uint8Array(Buffer.from('<a>\u00e9</a>', 'utf16le')), { xml: true }).text).toBe('<a>\u00e9</a>');
    const unknown = new TextEncoder().encode('<?xml version="1.0" encoding="X-NONE"?><a/>');
    expect(() => decodeText(unknown, { xml: true })).toThrow(
      'The XML declaration names an encoding that cannot be read: X-NONE.',
    );
  });
});

describe('detectFormat of text in UTF-16 and Windows-1252', () => {
  it('tells CSV, XML and JSON apart in UTF-16 instead of refusing them as binary', () => {
    expect(detectFormat(utf16le('a\tb\r\n1\t2\r\n'))).toBe('text');
    expect(detectFormat(utf16be('<?xml version="1.0"?><a/>'))).toBe('xml');
    expect(detectFormat(utf16le(' [{"a":1}]'))).toBe('json');
    expect(detectFormat(new Uint8Array(Buffer.from('<a/>', 'utf16le')))).toBe('xml');
    expect(detectFormat(Uint8Array.from([0x61, 0x3b, 0xe9, 0x0a, 0x80, 0x3b, 0x31]))).toBe('text');
    expect(detectFormat(Uint8Array.from([0x61, 0x00, 0x62, 0x00]))).toBe('binary');
  });
});
