import { XMLParser } from 'fast-xml-parser';
import { errorMessage } from '../../../platform/error-message.ts';
import { ParseError, type ParseLimits } from './limits.ts';
import { fieldList } from './model-fields.ts';
import { depthOf, tableOf } from './read-json.ts';
import type { ReadHints, ReadTable } from './table.ts';
import { decodeText } from './text-encoding.ts';

const ATTRS = '$attrs';
const TEXT = '#text';

type Element = Record<string, unknown>;

/** A run of elements of one name under one parent: the records are one of them. */
interface Group {
  name: string;
  items: unknown[];
  depth: number;
}

function isElement(value: unknown): value is Element {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An element with attributes or child elements, not only text: what a record looks like. */
function isRecordLike(value: unknown): value is Element {
  return isElement(value) && Object.keys(value).some((k) => k !== TEXT);
}

/** Every run of same-named elements under one parent, breadth first. */
function groupsOf(doc: Element): Group[] {
  const groups: Group[] = [];
  const queue: Array<[Element, number]> = [[doc, 0]];
  for (let k = 0; k < queue.length; k++) {
    const [node, depth] = queue[k] ?? [{}, 0];
    for (const [name, value] of Object.entries(node)) {
      if (name === ATTRS || name === TEXT) continue;
      const items = Array.isArray(value) ? value : [value];
      const records = items.filter(isRecordLike);
      if (records.length === 0) continue;
      groups.push({ name, items: records, depth });
      for (const item of records) queue.push([item, depth + 1]);
    }
  }
  return groups;
}

/** An element's field names: its attributes' (namespace declarations aside) and its children's. */
function namesOf(element: Element): string[] {
  const attrs = isElement(element[ATTRS]) ? Object.keys(element[ATTRS]).filter((a) => a !== 'xmlns') : [];
  return [...attrs, ...Object.keys(element).filter((k) => k !== ATTRS && k !== TEXT)];
}

/** How many of the data model's fields the group's first elements name. */
function matching(group: Group, fields: ReadonlySet<string>): number {
  const names = new Set(group.items.slice(0, 50).flatMap((item) => (isElement(item) ? namesOf(item) : [])));
  return [...names].filter((n) => fields.has(n)).length;
}

/** The group naming the most of the data model's fields, then the longest, then the shallowest (found first). */
function byFields(groups: readonly Group[], fields: ReadonlySet<string>): Group | undefined {
  let best: { group: Group; matched: number } | undefined;
  for (const group of fields.size > 0 ? groups : []) {
    const matched = matching(group, fields);
    const worse = best && (matched < best.matched || (matched === best.matched && group.items.length <= best.group.items.length));
    if (matched > 0 && !worse) best = { group, matched };
  }
  return best?.group;
}

/** The longest group of more than one element, the shallowest of equals. */
function mostRepeated(groups: readonly Group[]): Group | undefined {
  let best: Group | undefined;
  for (const group of groups) if (group.items.length > 1 && group.items.length > (best?.items.length ?? 0)) best = group;
  return best;
}

/**
 * The records: the elements naming the data model's fields (a file where none does is refused);
 * without a data model, the most repeated record-like element, else the root's only record-like
 * child, or the root itself.
 */
function recordsOf(doc: Element, hints: ReadHints, text: string): Group | undefined {
  const groups = groupsOf(doc);
  if (hints.fields.length > 0) return byFields(groups, new Set(hints.fields)) ?? refuseWithoutRecords(hints, text);
  const found = mostRepeated(groups);
  if (found) return found;
  const root = groups.find((g) => g.depth === 0);
  const children = root ? groups.filter((g) => g.depth === 1) : [];
  return children.length === 1 ? children[0] : root;
}

/** Excel's "XML Spreadsheet 2003" (cells as `<Row><Cell><Data>`), told by its namespace. */
const SPREADSHEET_2003 = /urn:schemas-microsoft-com:office:spreadsheet/;

function refuseWithoutRecords(hints: ReadHints, text: string): never {
  const why = `No element of the XML file holds the data model's fields (${fieldList(hints)}) as its children or attributes`;
  if (SPREADSHEET_2003.test(text.slice(0, 4096))) {
    throw new ParseError(
      `${why}: it is an Excel "XML Spreadsheet 2003" file, whose cells are not read as records; save it as an Excel workbook (.xlsx) and upload that.`,
    );
  }
  throw new ParseError(`${why}.`);
}

/** An element's value: its text ('' when empty), or for a nested element its fields. */
function fieldValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fieldValue);
  if (!isElement(value)) return value;
  if (!isRecordLike(value) || Object.keys(value).every((k) => k === ATTRS || k === TEXT)) return value[TEXT] ?? '';
  return rowOf(value);
}

/** A record's fields: its attributes by their name, then its child elements (which win over an attribute of their name). */
function rowOf(element: Element): Element {
  const attrs = isElement(element[ATTRS]) ? Object.entries(element[ATTRS]).filter(([a]) => a !== 'xmlns') : [];
  const children = Object.entries(element).filter(([k]) => k !== ATTRS && k !== TEXT);
  // fromEntries defines each name as the row's own, `__proto__` too.
  return Object.fromEntries([...attrs, ...children.map(([k, v]) => [k, fieldValue(v)] as const)]);
}

const PARSER_OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: ATTRS,
  // `p:code` is `code`; namespace declarations (`xmlns:p`) go with their prefix.
  removeNSPrefix: true,
  // The five XML entities and character references; a document's own entities are refused before.
  processEntities: true,
  htmlEntities: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
} as const;

/**
 * The records of an XML document: the repeated element whose children (and attributes) are the
 * data model's fields, text decoded. Entity declarations are refused (no expansion).
 */
export function readXml(text: string, hints: ReadHints, limits: ParseLimits): ReadTable {
  if (/<!ENTITY/i.test(text)) throw new ParseError('XML entity declarations are not accepted.');
  let doc: unknown;
  try {
    doc = new XMLParser(PARSER_OPTIONS).parse(text, true);
  } catch (error) {
    throw new ParseError(`The XML file cannot be read: ${errorMessage(error)}`);
  }
  if (depthOf(doc, limits.maxDepth + 2) > limits.maxDepth + 1) {
    throw new ParseError(`The XML is nested deeper than ${limits.maxDepth} levels.`);
  }
  const group = isElement(doc) ? recordsOf(doc, hints, text) : undefined;
  if (!group) throw new ParseError('The XML file holds no list of records.');
  const rows = group.items.filter(isElement).map(rowOf);
  const table = tableOf(
    rows,
    rows.map((_, i) => i + 1),
    limits,
    'Record',
  );
  const note = { level: 'info' as const, message: `The rows are the file's <${group.name}> elements (${rows.length}).` };
  return { ...table, notes: [note] };
}

/** An XML file's bytes read in the encoding of its byte order mark or declaration, the log told which. */
export function readXmlFile(bytes: Uint8Array, hints: ReadHints, limits: ParseLimits): ReadTable {
  const { text, note } = decodeText(bytes, { xml: true });
  const read = readXml(text, hints, limits);
  return { ...read, notes: [note, ...read.notes] };
}
