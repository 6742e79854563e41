import { ParseError, type ParseLimits } from '../limits.ts';
import type { ReadHints, ReadTable } from '../table.ts';
import { chooseSheet, type SheetSource } from './choose-sheet.ts';
import { entryText, InflateBudget, streamEntryText } from './inflate.ts';
import { SharedStringsReader } from './shared-strings.ts';
import { SheetScanner, type WorkbookContext } from './sheet-scan.ts';
import type { SheetTable } from './sheet-table.ts';
import { parseStyles } from './styles.ts';
import { mainPart, parseRelationships, parseWorkbook, type Relationship, relationshipsPart } from './workbook.ts';
import { findEntry, openZip, type ZipEntry } from './zip.ts';

// An XLSX workbook: its archive opened by hand, and only the parts needed inflated, within one
// budget: the workbook and its relationships, then, once a sheet is read, the shared strings and
// styles, and the sheets one by one until the one to read is found.

interface Archive {
  bytes: Uint8Array;
  entries: Map<string, ZipEntry>;
  budget: InflateBudget;
}

function partText(archive: Archive, part: string): string | undefined {
  const entry = findEntry(archive.entries, part);
  return entry && entryText(archive.bytes, entry, archive.budget);
}

function relatedPart(relationships: Map<string, Relationship>, type: string): string | undefined {
  for (const rel of relationships.values()) if (rel.type.endsWith(`/${type}`)) return rel.target;
  return undefined;
}

function sharedStringsOf(archive: Archive, part: string | undefined, limits: ParseLimits): string[] {
  const entry = part === undefined ? undefined : findEntry(archive.entries, part);
  if (!entry) return [];
  const reader = new SharedStringsReader(limits);
  streamEntryText(archive.bytes, entry, archive.budget, (text) => reader.push(text));
  reader.end();
  return reader.strings;
}

function readSheet(archive: Archive, part: string | undefined, table: SheetTable, context: WorkbookContext): void {
  const entry = part === undefined ? undefined : findEntry(archive.entries, part);
  if (!entry) return;
  const scanner = new SheetScanner(table, context);
  let going = true;
  streamEntryText(archive.bytes, entry, archive.budget, (text) => {
    going = scanner.push(text);
    return going;
  });
  if (going) scanner.end();
}

/** Reads an XLSX workbook's sheet that holds the data model's fields. */
export function readXlsx(bytes: Uint8Array, hints: ReadHints, limits: ParseLimits): ReadTable {
  const archive: Archive = { bytes, entries: openZip(bytes), budget: new InflateBudget(limits) };
  const main = mainPart(partText(archive, '_rels/.rels'));
  const workbookXml = partText(archive, main);
  if (workbookXml === undefined) throw new ParseError('The file is not an Excel workbook: its archive has no workbook part.');
  const relationships = parseRelationships(partText(archive, relationshipsPart(main)) ?? '', main);
  const { sheets, date1904 } = parseWorkbook(workbookXml, relationships);
  let context: WorkbookContext | undefined;
  // Shared strings and styles are read once, when the first visible sheet is.
  const contextOf = (): WorkbookContext => {
    context ??= {
      sharedStrings: sharedStringsOf(archive, relatedPart(relationships, 'sharedStrings'), limits),
      formats: parseStyles(partText(archive, relatedPart(relationships, 'styles') ?? 'xl/styles.xml')),
      date1904,
      limits,
    };
    return context;
  };
  const sources: SheetSource[] = sheets.map((sheet) => ({
    name: sheet.name,
    visibility: sheet.visibility,
    read: (table) => readSheet(archive, sheet.part, table, contextOf()),
  }));
  return chooseSheet(sources, hints, limits);
}
