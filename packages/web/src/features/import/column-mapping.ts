import type { DataSource } from '@gdb/shared/pipelines/pipeline.schemas';
import {
  type ColumnMappingBody,
  columnMappingViewSchema,
  type FileHead,
  fileHeadSchema,
  HEAD_SAMPLES,
  type SourceMappings,
  sourceMappingsSchema,
} from '@gdb/shared/uploads/column-mapping.schemas';
import {
  type ColumnChoice,
  headerSignature,
  type MatchResult,
  matchColumns,
  normaliseName,
} from '@gdb/shared/uploads/column-matcher';
import { api } from '../../ground/request/api.ts';

// The wizard's side of column matching: the header and first values of a chosen file (a CSV file's
// read in the browser, a workbook's asked of the server, which reads it as its check does), matched
// to the data source's fields by the shared matcher; the server stores the mapping chosen and
// applies it when it checks the file.

/** GET /uploads/column-mappings: the data source's fields and its stored mappings. */
export const sourceMappings = (pipelineId: string, dataSubKind: string) =>
  api.get('/uploads/column-mappings', sourceMappingsSchema, { query: { pipelineId, dataSubKind } });

/** POST /uploads/column-mappings: stores the mapping of a header. */
export const saveColumnMapping = (body: ColumnMappingBody) => api.post('/uploads/column-mappings', body, columnMappingViewSchema);

/** POST /uploads/file-head: a chosen file's header and first values, as the server's check reads them. */
function serverFileHead(pipelineId: string, dataSubKind: string, file: File): Promise<FileHead> {
  const form = new FormData();
  // The fields go before the file: the server checks them before it reads the file.
  form.append('pipelineId', pipelineId);
  form.append('dataSubKind', dataSubKind);
  form.append('file', file, file.name);
  return api.post('/uploads/file-head', form, fileHeadSchema);
}

/** Bytes of a file read for its header and sample values. */
const HEAD_BYTES = 64 * 1024;

/** A file's header and, per column, its first non-empty values. */
export type { FileHead };

/** The records of CSV text (RFC 4180 quotes); the last one without its line break only when the text is `whole` (not cut). */
function records(text: string, delimiter: string, whole: boolean): string[][] {
  const out: string[][] = [];
  let record: string[] = [];
  let value = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        value += '"';
        i++;
      } else if (c === '"') quoted = false;
      else value += c;
    } else if (c === '"' && value === '') quoted = true;
    else if (c === delimiter) {
      record.push(value);
      value = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(value);
      out.push(record);
      record = [];
      value = '';
    } else value += c;
  }
  if (whole && !quoted && (value !== '' || record.length > 0)) out.push([...record, value]);
  return out;
}

/** The delimiter the header line splits best with: `sep=` when the file sets it, else the one giving most columns. */
function delimiterOf(lines: string[]): { delimiter: string; skip: number } {
  const sep = /^sep=(.)$/i.exec(lines[0] ?? '');
  if (sep?.[1]) return { delimiter: sep[1], skip: 1 };
  const header = lines[0] ?? '';
  let best = ',';
  for (const candidate of [';', '\t', '|']) {
    if (header.split(candidate).length > header.split(best).length) best = candidate;
  }
  return { delimiter: best, skip: 0 };
}

/** The header and sample values of CSV text (its first part), as the server reads a header: names trimmed, nameless columns left out. */
export function headOfCsv(text: string, whole = true): FileHead {
  const clean = text.replace(/^\uFEFF/, '').replace(/^(?:[ \t]*\r?\n)+/, '');
  const { delimiter, skip } = delimiterOf(clean.split(/\r\n|\n|\r/, 2));
  const body = skip ? clean.slice(clean.search(/\r\n|\n|\r/) + 1).replace(/^\n/, '') : clean;
  const [names = [], ...rows] = records(body, delimiter, whole);
  const kept = names.map((n, i) => [n.trim(), i] as const).filter(([n]) => n !== '');
  return {
    columns: kept.map(([n]) => n),
    samples: kept.map(([, i]) =>
      rows
        .map((r) => (r[i] ?? '').trim())
        .filter((v) => v !== '')
        .slice(0, HEAD_SAMPLES),
    ),
  };
}

/** Text of a file's first bytes in its encoding as the server reads it: UTF-16 by its byte order mark, UTF-8, else Windows-1252. */
export function textOfHead(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const text = new TextDecoder('utf-8').decode(bytes);
  // A replacement character in the header: not UTF-8 (the slice's cut at its end is left aside).
  const header = text.slice(0, Math.max(text.search(/\r|\n/), 0) || text.length - 4);
  return header.includes('\uFFFD') ? new TextDecoder('windows-1252').decode(bytes) : text;
}

/** A chosen CSV file's header and sample values, from its first 64 KiB. */
async function readFileHead(file: File): Promise<FileHead> {
  return headOfCsv(textOfHead(new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer())), file.size <= HEAD_BYTES);
}

/** The head of a file chosen for a data source: a CSV file's read here, a workbook's read by the server. */
export function headOfChosenFile(pipelineId: string, source: DataSource, file: File): Promise<FileHead> {
  return source.contentType === 'csv' ? readFileHead(file) : serverFileHead(pipelineId, source.dataSubKind, file);
}

/** What the wizard does with a chosen file: take it as it is, or ask for a mapping, proposed. */
export type MappingProposal = { ask: false } | { ask: true; choices: ColumnChoice[]; match: MatchResult };

/**
 * Whether a header needs a mapping, and the one proposed: none when the data source has no data
 * model, when a mapping is stored for this header (the server applies it), or when the header
 * names the fields as they are. The columns the matcher leaves unmapped take the field an earlier
 * mapping of the source gave a column of that name.
 */
export function proposeMapping(columns: readonly string[], source: SourceMappings): MappingProposal {
  if (source.fields.length === 0 || columns.length === 0) return { ask: false };
  const signature = headerSignature(columns);
  if (source.mappings.some((m) => m.signature === signature)) return { ask: false };
  const match = matchColumns(columns, source.fields);
  if (match.exact) return { ask: false };
  const fields = new Set(source.fields.map((f) => f.name));
  const earlier = new Map<string, string | null>();
  for (const m of [...source.mappings].reverse()) for (const c of m.columns) earlier.set(normaliseName(c.column), c.field);
  const taken = new Set(match.columns.map((c) => c.field));
  const choices = match.columns.map(({ column, field }): ColumnChoice => {
    if (field !== null) return { column, field };
    const before = earlier.get(normaliseName(column));
    if (before && fields.has(before) && !taken.has(before)) {
      taken.add(before);
      return { column, field: before };
    }
    return { column, field: null };
  });
  return { ask: true, choices, match };
}
