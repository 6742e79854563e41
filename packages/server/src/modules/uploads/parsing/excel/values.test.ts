import { describe, expect, it } from 'vitest';
import { isoOfSerial, kindOf } from './number-format.ts';
import { decodeText, runsText } from './xml.ts';

describe('number formats', () => {
  it.each([
    ['General', 'general'],
    ['00000', 'number'],
    ['0.0%', 'number'],
    ['#,##0.00 "EUR"', 'number'],
    ['"day "0', 'number'],
    ['yyyy-mm-dd', 'date'],
    ['d-mmm-yy', 'date'],
    ['[$-409]mmmm d, yyyy;@', 'date'],
    ['dd/mm/yyyy hh:mm:ss', 'datetime'],
    ['m/d/yy h:mm AM/PM', 'datetime'],
    ['hh:mm', 'time'],
    ['mm:ss.0', 'time'],
    ['h:mm AM/PM', 'time'],
    ['[h]:mm:ss', 'elapsed'],
    ['[Red][<0]0.00;0.00', 'number'],
  ])('%s is read as %s', (code, kind) => {
    expect(kindOf(code)).toBe(kind);
  });

  it('gives dates in the 1900 and 1904 systems, rounding times to the second', () => {
    expect(isoOfSerial(46082, 'date', false)).toBe('2026-03-01');
    expect(isoOfSerial(46082 - 1462, 'date', true)).toBe('2026-03-01');
    expect(isoOfSerial(1, 'date', false)).toBe('1900-01-01');
    expect(isoOfSerial(61, 'date', false)).toBe('1900-03-01');
    expect(isoOfSerial(46082.604166666664, 'datetime', false)).toBe('2026-03-01T14:30:00');
    expect(isoOfSerial(0.9999999, 'time', false)).toBe('00:00:00');
    expect(isoOfSerial(1.5, 'elapsed', false)).toBe('36:00:00');
    expect(isoOfSerial(-1, 'date', false)).toBeUndefined();
  });
});

describe('cell texts', () => {
  it('decodes XML entities, character references and OOXML escapes', () => {
    expect(decodeText('Smith &amp; Sons &lt;3 &#233;&#x1F680;')).toBe('Smith & Sons <3 é🚀');
    expect(decodeText('a_x000D__x000A_b')).toBe('a\r\nb');
    expect(decodeText('_x005F_x000D_')).toBe('_x000D_');
  });

  it('joins rich text runs and leaves phonetic hints out', () => {
    expect(
      runsText('<r><rPr><b/></rPr><t>Bold</t></r><r><t xml:space="preserve"> and plain</t></r><rPh sb="0"><t>ボ</t></rPh>'),
    ).toBe('Bold and plain');
  });
});
