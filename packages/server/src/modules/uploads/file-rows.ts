import type { TestFileRows } from '@gdb/shared/components/hierarchy.schemas';
import type { MimeGroup } from '@gdb/shared/reference/mimetypes';
import { columnValues, storedTablesBytes } from '../../platform/files/row-tables.ts';
import { invalid } from '../../platform/http/errors.ts';
import { detectFormat } from './parsing/detect.ts';
import type { ParsePool } from './parsing/parse-pool.ts';

type Format = TestFileRows['format'];

/** The reader a file's bytes call for: a CSV text, a workbook (its first visible sheet), JSON; anything else is refused. */
const GROUPS: Partial<Record<ReturnType<typeof detectFormat>, { group: MimeGroup; format: Format }>> = {
  text: { group: 'csv', format: 'csv' },
  xlsx: { group: 'excel', format: 'xlsx' },
  xls: { group: 'excel', format: 'xls' },
  json: { group: 'json', format: 'json' },
};

/** The rows of one stored table: an array of rows, or a column table (coded columns decoded). */
function rowsOf(table: unknown): Record<string, unknown>[] {
  if (Array.isArray(table)) return table.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null);
  if (typeof table !== 'object' || table === null || !('columns' in table) || !('data' in table)) return [];
  const { columns, data } = table as { columns: string[]; data: unknown[] };
  const values = data.map((column) => columnValues(column) ?? []);
  const n = values[0]?.length ?? 0;
  const rows: Record<string, unknown>[] = [];
  for (let r = 0; r < n; r++) {
    const row: Record<string, unknown> = {};
    // A field named __proto__ stays an own field.
    columns.forEach((name, c) => {
      Object.defineProperty(row, name, { value: values[c]?.[r], enumerable: true, writable: true, configurable: true });
    });
    rows.push(row);
  }
  return rows;
}

/**
 * Reads a file's rows with no data model, as an upload is read (the same readers, in a parse worker
 * with its memory and time limits): the component editor's test files. Refuses (422) a file that is
 * not CSV, XLSX, XLS or JSON, or that cannot be read, saying why.
 */
export async function readFileRows(parser: ParsePool, fileName: string, bytes: Uint8Array): Promise<TestFileRows> {
  const kind = GROUPS[detectFormat(bytes)];
  if (!kind) throw invalid('The file is not a CSV, XLSX, XLS or JSON file.');
  const outcome = await parser.parse({ bytes, group: kind.group, dataModel: null });
  const tables = outcome.status === 'valid' && outcome.rowsBytes ? storedTablesBytes(outcome.rowsBytes) : null;
  if (!tables) throw invalid(outcome.problems[0]?.message ?? outcome.summary);
  const parsed: unknown = JSON.parse(`[${Buffer.from(tables.buffer, tables.byteOffset, tables.length).toString('utf8')}]`);
  const rows = (Array.isArray(parsed) ? parsed : []).flatMap(rowsOf);
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return { fileName, format: kind.format, fields, rowCount: rows.length, rows };
}
