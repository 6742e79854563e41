import { formatOf, GENERAL, type NumberFormat } from './number-format.ts';
import { attribute, startTags } from './xml.ts';

// The styles part as far as values need it: the number format of each cell style (`<cellXfs>`),
// by the style index a cell's `s` attribute names.

const CELL_XFS = /<(?:[\w.-]+:)?cellXfs\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?cellXfs>/;

/** The number format of each cell style, in the order the cells' `s` attribute counts them. */
export function parseStyles(xml: string | undefined): NumberFormat[] {
  if (xml === undefined) return [];
  const custom = new Map<number, string>();
  for (const tag of startTags(xml, 'numFmt')) {
    const id = Number(attribute(tag, 'numFmtId'));
    const code = attribute(tag, 'formatCode');
    if (Number.isInteger(id) && code !== undefined) custom.set(id, code);
  }
  const xfs = CELL_XFS.exec(xml)?.[1] ?? '';
  const formats: NumberFormat[] = [];
  for (const tag of startTags(xfs, 'xf')) {
    const id = Number(attribute(tag, 'numFmtId') ?? 0);
    formats.push(Number.isInteger(id) ? formatOf(id, custom) : GENERAL);
  }
  return formats;
}
