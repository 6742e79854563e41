import type { ParseLimits } from './limits.ts';
import { type CsvRead, readCsvFile } from './read-csv.ts';
import { readJsonFile } from './read-json.ts';
import { readXmlFile } from './read-xml.ts';
import type { ReadHints, ReadTable } from './table.ts';

/** A CSV, XML or JSON file read as a table, in its own encoding (its notes say which). */
export function readTextFormat(
  bytes: Uint8Array,
  format: 'text' | 'xml' | 'json',
  hints: ReadHints,
  limits: ParseLimits,
): ReadTable | CsvRead {
  if (format === 'json') return readJsonFile(bytes, hints, limits);
  if (format === 'xml') return readXmlFile(bytes, hints, limits);
  return readCsvFile(bytes, hints, limits);
}
