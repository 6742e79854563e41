/**
 * A CSV reader written for the tests only, character by character, as plain as RFC 4180 reads:
 * the column-wise reader of the uploads is held to its rows. Any line break (CR LF, LF, a lone
 * CR) outside quotes ends a record; a quote opens quoted text only at the start of a value.
 */
export interface ReferenceRecord {
  values: string[];
  /** The line the record starts on. */
  line: number;
}

export function referenceRecords(text: string, delimiter: string): ReferenceRecord[] | 'unclosed' {
  const records: ReferenceRecord[] = [];
  let values: string[] = [];
  let value = '';
  let atStart = true;
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let pending = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const lineBreak = c === '\n' || (c === '\r' && text[i + 1] !== '\n');
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        value += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        value += c;
        if (lineBreak) line++;
      }
      continue;
    }
    if (c === '"' && atStart) {
      quoted = true;
      atStart = false;
      pending = true;
    } else if (c === delimiter) {
      values.push(value);
      value = '';
      atStart = true;
      pending = true;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      values.push(value);
      records.push({ values, line: recordLine });
      values = [];
      value = '';
      atStart = true;
      pending = false;
      line++;
      recordLine = line;
    } else {
      value += c;
      atStart = false;
      pending = true;
    }
  }
  if (quoted) return 'unclosed';
  if (pending) records.push({ values: [...values, value], line: recordLine });
  return records;
}

/** The rows a header and records make: blank records skipped, names trimmed, short rows filled with ''. */
export function referenceRows(records: readonly ReferenceRecord[]) {
  const body = records.filter((r) => r.values.some((v) => v.trim() !== ''));
  const [header, ...rest] = body;
  const fields = (header?.values ?? []).map((f) => f.trim());
  return {
    fields,
    rows: rest.map((r) => Object.fromEntries(fields.map((f, i) => [f, r.values[i] ?? '']))),
    lines: rest.map((r) => r.line),
    uneven: rest.filter((r) => r.values.length !== fields.length).map((r) => r.line),
  };
}
