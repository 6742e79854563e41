import { type ColumnChoice, headerSignature, mappingLine, normaliseName, targetsOf } from '@gdb/shared/uploads/column-matcher';
import type { CsvRead } from './read-csv.ts';
import type { ReadHints, ReadTable, Row } from './table.ts';

// A file's columns renamed to the data model's fields by its data source's stored mapping for
// that header (uploads/column-mappings.ts), before any check: the same mapping serves the wizard's
// files and those an endpoint receives later. A header no mapping was stored for is read as written.

/** The stored mapping for a header: the one of the same signature, or null. */
function mappingFor(header: readonly string[], mappings: readonly ColumnChoice[][] | undefined): ColumnChoice[] | null {
  if (!mappings || mappings.length === 0) return null;
  const signature = headerSignature(header);
  return mappings.find((m) => headerSignature(m.map((c) => c.column)) === signature) ?? null;
}

/**
 * What a reader may know of the fields when mappings may rename the columns: the columns they map
 * count as the data model's fields (to find the header, the sheet, the records; a CSV header in any
 * spelling of theirs), none required.
 */
export function mappedHints(hints: ReadHints, mappings: readonly ColumnChoice[][] | undefined): ReadHints {
  if (!mappings || mappings.length === 0) return hints;
  const mapped = mappings.flatMap((m) => m.filter((c) => c.field !== null).map((c) => c.column));
  return {
    fields: [...new Set([...hints.fields, ...mapped])],
    required: [],
    mapped: new Set(mapped.map(normaliseName)),
  };
}

/** The columns kept (by index) and their new names, when a mapping applies. */
function renaming(fields: readonly string[], mappings: readonly ColumnChoice[][] | undefined) {
  const mapping = mappingFor(fields, mappings);
  if (!mapping) return null;
  const targets = targetsOf(fields, mapping);
  // A mapping stored before the data model changed may name a field twice now: the file is read as written.
  const named = targets.filter((t): t is string => t !== null);
  if (new Set(named).size !== named.length) return null;
  const note = {
    level: 'info' as const,
    message: mappingLine(fields.map((column, i) => ({ column, field: targets[i] ?? null }))),
  };
  return { targets, note };
}

/** CSV columns renamed and the ignored ones left out, as the data source's mapping for the header says. */
export function mapCsvRead(read: CsvRead, mappings: readonly ColumnChoice[][] | undefined): CsvRead {
  const rename = renaming(read.fields, mappings);
  if (!rename) return read;
  const { targets, note } = rename;
  const fields = targets.filter((t): t is string => t !== null);
  const columns = read.columns.filter((_, i) => typeof targets[i] === 'string');
  return { ...read, fields, columns, notes: [...read.notes, note] };
}

/** A read file with its columns renamed and the ignored ones left out, as its data source's mapping for its header says. */
export function mapRead(read: CsvRead | ReadTable, mappings: readonly ColumnChoice[][] | undefined): CsvRead | ReadTable {
  if ('columns' in read) return mapCsvRead(read, mappings);
  const rename = renaming(read.fields, mappings);
  if (!rename) return read;
  const { targets, note } = rename;
  const pairs = read.fields.flatMap((f, i) => {
    const to = targets[i];
    return typeof to === 'string' ? [[f, to] as const] : [];
  });
  const rows = read.rows.map((row) => {
    const out: Row = {};
    for (const [from, to] of pairs) if (Object.hasOwn(row, from)) out[to] = row[from];
    return out;
  });
  return { ...read, fields: pairs.map(([, to]) => to), rows, notes: [...read.notes, note] };
}

/** Rows read with no data model (the review's), renamed and the ignored columns left out as the mapping for their header says. */
export function mapRows<T extends { fields: string[]; rows: Record<string, unknown>[] }>(
  read: T,
  mappings: readonly ColumnChoice[][] | undefined,
): T {
  const mapped = mapRead({ fields: read.fields, rows: read.rows as Row[], lines: [], rowProblems: [], notes: [] }, mappings);
  return 'columns' in mapped ? read : { ...read, fields: mapped.fields, rows: mapped.rows };
}
