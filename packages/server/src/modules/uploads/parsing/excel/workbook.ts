import { ParseError } from '../limits.ts';
import { attribute, startTags } from './xml.ts';

// The workbook part: its sheets in their order (name, visibility, part) and its date system, found
// through the package's relationships as a spreadsheet application finds them.

export type Visibility = 'visible' | 'hidden' | 'veryHidden';

interface SheetEntry {
  name: string;
  visibility: Visibility;
  /** The sheet's part in the archive (`xl/worksheets/sheet1.xml`), when it has one. */
  part: string | undefined;
}

export interface WorkbookInfo {
  sheets: SheetEntry[];
  /** True when dates count from 1904-01-01 (the Mac system) instead of 1900. */
  date1904: boolean;
}

export interface Relationship {
  type: string;
  target: string;
}

const OFFICE_DOCUMENT = /\/officeDocument$/;

/** The part a relationship target names, resolved from the part that holds the relationship. */
function resolvePart(from: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = from.split('/').slice(0, -1);
  for (const piece of target.split('/')) {
    if (piece === '..') parts.pop();
    else if (piece !== '.' && piece !== '') parts.push(piece);
  }
  return parts.join('/');
}

/** The relationships part of a part (`xl/_rels/workbook.xml.rels` for `xl/workbook.xml`). */
export function relationshipsPart(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** A relationships part's entries by id, targets resolved from `from`. */
export function parseRelationships(xml: string, from: string): Map<string, Relationship> {
  const out = new Map<string, Relationship>();
  for (const tag of startTags(xml, 'Relationship')) {
    const id = attribute(tag, 'Id');
    const target = attribute(tag, 'Target');
    if (id === undefined || target === undefined || attribute(tag, 'TargetMode') === 'External') continue;
    out.set(id, { type: attribute(tag, 'Type') ?? '', target: resolvePart(from, target) });
  }
  return out;
}

/** The workbook part the package's root relationships name (`xl/workbook.xml` by convention). */
export function mainPart(rootRelationships: string | undefined): string {
  if (rootRelationships === undefined) return 'xl/workbook.xml';
  for (const rel of parseRelationships(rootRelationships, '').values()) {
    if (OFFICE_DOCUMENT.test(rel.type)) return rel.target;
  }
  return 'xl/workbook.xml';
}

const RELATIONSHIP_ID = /\s[\w.-]+:id\s*=\s*(?:"([^"]*)"|'([^']*)')/;

function visibilityOf(state: string | undefined): Visibility {
  return state === 'hidden' ? 'hidden' : state === 'veryHidden' ? 'veryHidden' : 'visible';
}

/** The workbook's sheets and date system, from its part and its relationships. */
export function parseWorkbook(xml: string, relationships: Map<string, Relationship>): WorkbookInfo {
  const sheets: SheetEntry[] = [];
  for (const tag of startTags(xml, 'sheet')) {
    const name = attribute(tag, 'name');
    if (name === undefined) throw new ParseError('The workbook is damaged: a sheet has no name.');
    const match = RELATIONSHIP_ID.exec(tag);
    const id = match ? (match[1] ?? match[2]) : undefined;
    const rel = id === undefined ? undefined : relationships.get(id);
    // Chart sheets and dialog sheets hold no cells: they are listed, and read as empty.
    const part = rel && /\/worksheet$/.test(rel.type) ? rel.target : undefined;
    sheets.push({ name, visibility: visibilityOf(attribute(tag, 'state')), part });
  }
  const value = attribute(mainWorkbookPr(xml) ?? '', 'date1904');
  return { sheets, date1904: value === '1' || value === 'true' };
}

const ROOT = /<(?:([\w.-]+):)?workbook[\s>/]/;
const EXTENSIONS = /<(?:[\w.-]+:)?extLst[\s>/]/;

/**
 * The attributes of the workbook's own `workbookPr`: the one in the root element's namespace
 * before the extension list (the workbook's last child), never an extension's (Excel 2010 and
 * later add an `x15:workbookPr` without `date1904` under `<extLst>`).
 */
function mainWorkbookPr(xml: string): string | undefined {
  const prefix = ROOT.exec(xml)?.[1];
  const extensions = xml.search(EXTENSIONS);
  const own = extensions < 0 ? xml : xml.slice(0, extensions);
  const pattern = new RegExp(`<${prefix ? `${prefix}:` : ''}workbookPr(\\s[^<>]*)?\\/?>`);
  return pattern.exec(own)?.[1];
}
