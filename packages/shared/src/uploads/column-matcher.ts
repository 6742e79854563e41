// A file's columns matched to a data model's fields: what the wizard proposes and the server applies.
// A column names a field exactly, or after normalising both (case, spaces, accents, punctuation),
// or by the field's title, or by one of its alternate names (`x-aliases`). A field two columns
// claim goes to the better match; the other column is left unmapped.

/** The keyword a data model lists a field's alternate names under: an array of texts. */
export const ALIASES_KEYWORD = 'x-aliases';

/** A data model's field as the matcher knows it. */
export interface MatchField {
  name: string;
  title?: string;
  aliases: string[];
  required: boolean;
}

/** How a column matched its field, best first. */
export const MATCH_KINDS = ['exact', 'normalised', 'title', 'alias'] as const;
export type MatchKind = (typeof MATCH_KINDS)[number];

/** A column of the file and the field it goes to (null: ignored). */
export interface ColumnChoice {
  column: string;
  field: string | null;
}

export interface ColumnMatch extends ColumnChoice {
  /** How it matched; null when no field matched (or another column matched the field better). */
  how: MatchKind | null;
}

export interface MatchResult {
  columns: ColumnMatch[];
  /** Columns that matched a field another column matched better, with that field. */
  contested: { column: string; field: string }[];
  /** Required fields no column goes to. */
  missingRequired: string[];
  /** Whether the header names the data model's fields as they are: no mapping is needed. */
  exact: boolean;
}

/** A name compared without case, accents, spaces or punctuation: "Dealer Code", "dealer_code", "DEALER-CODE" → "dealercode". */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** A header's signature: its normalised names, sorted (the same columns in another order are the same header). */
export function headerSignature(columns: readonly string[]): string {
  return columns.map(normaliseName).sort().join('\u001f');
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A data model's fields (the items' properties of an array model), with their titles, alternate names and whether required. */
export function matchFieldsOf(dataModel: Record<string, unknown>): MatchField[] {
  const row = dataModel.type === 'array' && isRecord(dataModel.items) ? dataModel.items : dataModel;
  const properties = isRecord(row.properties) ? row.properties : {};
  const required = new Set(Array.isArray(row.required) ? row.required : []);
  return Object.entries(properties).map(([name, field]) => {
    const f = isRecord(field) ? field : {};
    const aliases = Array.isArray(f[ALIASES_KEYWORD]) ? f[ALIASES_KEYWORD].filter((a): a is string => typeof a === 'string') : [];
    const title = typeof f.title === 'string' && f.title.trim() !== '' ? f.title : undefined;
    return { name, ...(title ? { title } : {}), aliases, required: required.has(name) };
  });
}

/** How well a column names a field (a rank in MATCH_KINDS), or -1. */
function rankOf(column: string, field: MatchField): number {
  if (column === field.name) return 0;
  const key = normaliseName(column);
  if (key === '') return -1;
  if (key === normaliseName(field.name)) return 1;
  if (field.title !== undefined && key === normaliseName(field.title)) return 2;
  if (field.aliases.some((a) => normaliseName(a) === key)) return 3;
  return -1;
}

/** Each column's best field: the best rank, then the first field in the model's order. */
function bestFields(columns: readonly string[], fields: readonly MatchField[]): { field: string; rank: number }[] {
  return columns.map((column) => {
    let best = { field: '', rank: -1 };
    for (const field of fields) {
      const rank = rankOf(column, field);
      if (rank !== -1 && (best.rank === -1 || rank < best.rank)) best = { field: field.name, rank };
    }
    return best;
  });
}

/** The file's columns matched to the fields; a field claimed twice goes to the better match (the first column on a tie). */
export function matchColumns(columns: readonly string[], fields: readonly MatchField[]): MatchResult {
  const best = bestFields(columns, fields);
  const winner = new Map<string, number>();
  best.forEach(({ field, rank }, i) => {
    if (rank === -1) return;
    const held = winner.get(field);
    if (held === undefined || rank < (best[held]?.rank ?? Number.POSITIVE_INFINITY)) winner.set(field, i);
  });
  const contested: MatchResult['contested'] = [];
  const matched = columns.map((column, i): ColumnMatch => {
    const { field, rank } = best[i] ?? { field: '', rank: -1 };
    if (rank === -1) return { column, field: null, how: null };
    if (winner.get(field) !== i) {
      contested.push({ column, field });
      return { column, field: null, how: null };
    }
    return { column, field, how: MATCH_KINDS[rank] ?? null };
  });
  const missingRequired = missingRequiredOf(matched, fields);
  const exact = matched.every((c) => c.how === null || c.how === 'exact') && contested.length === 0;
  return { columns: matched, contested, missingRequired, exact };
}

/** The required fields no column goes to, in the model's order. */
export function missingRequiredOf(choices: readonly ColumnChoice[], fields: readonly MatchField[]): string[] {
  const mapped = new Set(choices.map((c) => c.field));
  return fields.filter((f) => f.required && !mapped.has(f.name)).map((f) => f.name);
}

/** The messages of a mapping the server refuses. */
export const MAPPING_MESSAGES = {
  notAField: (field: string) => `The mapping names "${field}", which is not a field of the data model.`,
  twice: (field: string, a: string, b: string) => `The mapping maps both "${a}" and "${b}" to the field "${field}".`,
  columnTwice: (column: string) => `The mapping lists the column "${column}" twice.`,
  noModel: 'This data source has no data model to map columns to.',
  missing: (fields: readonly string[]) => `Required fields not mapped: ${fields.join(', ')}.`,
} as const;

/**
 * Why a mapping cannot be applied to the fields (a field not in the model, one field for two
 * columns, a required field no column is mapped to), or null.
 */
export function mappingIssue(choices: readonly ColumnChoice[], fields: readonly MatchField[]): string | null {
  const names = new Set(fields.map((f) => f.name));
  const byField = new Map<string, string>();
  const columns = new Set<string>();
  for (const { column, field } of choices) {
    if (columns.has(column)) return MAPPING_MESSAGES.columnTwice(column);
    columns.add(column);
    if (field === null) continue;
    if (!names.has(field)) return MAPPING_MESSAGES.notAField(field);
    const other = byField.get(field);
    if (other !== undefined) return MAPPING_MESSAGES.twice(field, other, column);
    byField.set(field, column);
  }
  const missing = missingRequiredOf(choices, fields);
  return missing.length > 0 ? MAPPING_MESSAGES.missing(missing) : null;
}

/** The log line of a mapping used: "Columns mapped: Dealer Code → dealerCode, E-Mail → email; ignored: Notes". */
export function mappingLine(choices: readonly ColumnChoice[]): string {
  const mapped = choices.filter((c) => c.field !== null && c.field !== c.column).map((c) => `${c.column} → ${c.field}`);
  const ignored = choices.filter((c) => c.field === null).map((c) => c.column);
  const parts = [`Columns mapped: ${mapped.length > 0 ? mapped.join(', ') : 'none renamed'}`];
  if (ignored.length > 0) parts.push(`ignored: ${ignored.join(', ')}`);
  return parts.join('; ');
}

/**
 * Each column's target under a stored mapping (its field, or null when ignored), for a header of
 * the same signature: by the column's exact name, else its normalised name.
 */
export function targetsOf(header: readonly string[], choices: readonly ColumnChoice[]): (string | null)[] {
  const exact = new Map(choices.map((c) => [c.column, c.field]));
  const normal = new Map(choices.map((c) => [normaliseName(c.column), c.field]));
  return header.map((column) => {
    const byName = exact.get(column);
    if (byName !== undefined) return byName;
    return normal.get(normaliseName(column)) ?? null;
  });
}
