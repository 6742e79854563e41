import { formatOf, GENERAL, type NumberFormat } from './number-format.ts';
import { attribute, startTags } from './xml.ts';

// The styles part as far as values need it: the number format of each cell style (`<cellXfs>`),
// by the style index a cell's `s` attribute names.

const CELL_XFS_START = /<(?:[\w.-]+:)?cellXfs\b[^<>]*>/;
const CELL_XFS_END = /<\/(?:[\w.-]+:)?cellXfs>/;

/** The content of the first `<cellXfs>`, its end searched once from its start. */
function cellXfs(xml: string): string {
  const start = CELL_XFS_START.exec(xml);
  if (!start) return '';
  const from = start.index + start[0].length;
  const end = CELL_XFS_END.exec(xml.slice(from));
  return end ? xml.slice(from, from + end.index) : '';
}

/** The number format of each cell style, in the order the cells' `s` attribute counts them. */
export function parseStyles(xml: string | undefined): NumberFormat[] {
  if (xml === undefined) return [];
  const custom = new Map<number, string>();
  for (const tag of startTags(xml, 'numFmt')) {
    const id = Number(attribute(tag, 'numFmtId'));
    const code = attribute(tag, 'formatCode');
    if (Number.isInteger(id) && code !== undefined) custom.set(id, code);
  }
  const xfs = cellXfs(xml);
  const formats: NumberFormat[] = [];
  for (const tag of startTags(xfs, 'xf')) {
    const id = Number(attribute(tag, 'numFmtId') ?? 0);
    formats.push(Number.isInteger(id) ? formatOf(id, custom) : GENERAL);
  }
  return formats;
}
