import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from './limits.ts';
import { readXml } from './read-xml.ts';

const hints = (...fields: string[]) => ({ fields, required: [] });
const rowsOf = (xml: string, fields: string[] = []) => readXml(xml, hints(...fields), DEFAULT_LIMITS).rows;

describe('readXml', () => {
  it('takes as records the repeated element whose children are the data model fields, not the first repeated one', () => {
    const xml =
      '<r><meta><a>1</a><b>2</b></meta><meta><a>3</a><b>4</b></meta><meta><a>5</a><b>6</b></meta><d><code>X</code></d><d><code>Y</code></d></r>';
    expect(rowsOf(xml, ['code', 'qty'])).toEqual([{ code: 'X' }, { code: 'Y' }]);
    // Without a data model, the most repeated record-like element.
    expect(rowsOf(xml)).toHaveLength(3);
  });

  it('decodes entities and character references, keeps CDATA as written, and gives an empty element as ""', () => {
    const xml =
      '<r><d><n>Smith &amp; Sons &#233;&#x20AC; &amp;lt;</n><c><![CDATA[a &amp; b]]></c><e/></d><d><n>x</n><e></e></d></r>';
    expect(rowsOf(xml)).toEqual([
      { n: 'Smith & Sons \u00e9\u20ac &lt;', c: 'a &amp; b', e: '' },
      { n: 'x', e: '' },
    ]);
  });

  it('maps attributes to fields of their name and ignores namespace prefixes and declarations', () => {
    const xml =
      '<p:r xmlns:p="urn:p" xmlns="urn:d"><p:d p:id="1" kind="a"><p:code>X</p:code></p:d><d id="2"><code>Y</code></d></p:r>';
    expect(rowsOf(xml, ['id', 'code'])).toEqual([
      { id: '1', kind: 'a', code: 'X' },
      { id: '2', code: 'Y' },
    ]);
  });

  it('reads one record, numbers records by position, and names the element read in a note', () => {
    const read = readXml('<r><d><code>X</code></d></r>', hints(), DEFAULT_LIMITS);
    expect(read).toMatchObject({
      rows: [{ code: 'X' }],
      lines: [1],
      notes: [{ message: "The rows are the file's <d> elements (1)." }],
    });
  });

  it('refuses entity declarations and documents nested deeper than the limit', () => {
    expect(() => rowsOf('<!DOCTYPE r [<!ENTITY a "x">]><r><d><c>&a;</c></d></r>')).toThrow(
      'XML entity declarations are not accepted.',
    );
    const deep = `${'<a>'.repeat(80)}x${'</a>'.repeat(80)}`;
    expect(() => rowsOf(deep)).toThrow(`The XML is nested deeper than ${DEFAULT_LIMITS.maxDepth} levels.`);
  });
});
