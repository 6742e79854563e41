// The text formats are read by read-csv.ts, read-xml.ts and read-json.ts (their encoding by
// text-encoding.ts); what other modules took from here stays here.
import type { ParseLimits } from './limits.ts';
import { readCsv, rowsOf } from './read-csv.ts';
import type { Row } from './table.ts';

export { type CsvRead, rowsOf } from './read-csv.ts';
export type { Row } from './table.ts';

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** CSV text with a header line, as rows. */
export function parseCsv(text: string, limits: ParseLimits): Row[] {
  return rowsOf(readCsv(text, limits));
}
