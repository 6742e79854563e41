/**
 * PostgreSQL's binary COPY format, written and read here once (header, rows of fields, trailer); the
 * protocol that carries it is pg-copy-streams' (copy-streams.ts). A value's bytes go out as they
 * are and come back as views of the data read, so a large file's parts are never copied to frame them.
 */

/** The first bytes of a binary COPY's data. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** A column's value in its binary form (see `int4`, `text`), or null. */
export type CopyValue = Uint8Array | null;

/** A 32-bit integer's binary form. */
export function int4(value: number): Buffer {
  const bytes = Buffer.allocUnsafe(4);
  bytes.writeInt32BE(value);
  return bytes;
}

/** A text's binary form: its UTF-8. */
export function text(value: string): Buffer {
  return Buffer.from(value, 'utf8');
}

/** Values up to this size go into the framing around them; larger ones are given as they are. */
const INLINE_BYTES = 4096;

/** The largest row written: a field of PostgreSQL holds at most 1 GB. */
const MAX_ROW_BYTES = 1024 * 1024 * 1024;

/** The bytes a row takes: its field count, and each field's length and value. */
function rowBytes(row: readonly CopyValue[]): number {
  return row.reduce((n, value) => n + 4 + (value?.byteLength ?? 0), 2);
}

/**
 * The binary COPY data of `rows`, as pieces to write one after the other: the framing and small
 * values gathered into buffers of their own, large values given as they are (the caller leaves
 * them unchanged until they are written). A row over 1 GB is refused before anything is made.
 */
export function binaryCopyData(rows: readonly (readonly CopyValue[])[]): Uint8Array[] {
  for (const row of rows) {
    const bytes = rowBytes(row);
    if (bytes > MAX_ROW_BYTES) throw new RangeError(`A row of ${bytes} bytes is too large for a COPY.`);
  }
  const out: Uint8Array[] = [];
  let small: number[] = [...SIGNATURE, 0, 0, 0, 0, 0, 0, 0, 0];
  const int = (value: number, size: 2 | 4) => {
    for (let shift = (size - 1) * 8; shift >= 0; shift -= 8) small.push((value >>> shift) & 0xff);
  };
  for (const row of rows) {
    int(row.length, 2);
    for (const value of row) {
      int(value === null ? -1 : value.byteLength, 4);
      if (value === null || value.byteLength === 0) continue;
      if (value.byteLength <= INLINE_BYTES) small.push(...value);
      else {
        out.push(Buffer.from(small), value);
        small = [];
      }
    }
  }
  int(-1, 2);
  out.push(Buffer.from(small));
  return out;
}

/** Size of a binary COPY's data of one column besides its values: the header and trailer, and each row's field count and length. */
export function binaryCopyFraming(rows: number): number {
  return SIGNATURE.length + 8 + 2 + rows * 6;
}

/** Reads binary COPY data: its fields, with where the next one starts; a value cut short is refused. */
class CopyReader {
  private at = 0;
  constructor(private readonly data: Buffer) {}
  private need(bytes: number): void {
    if (this.at + bytes > this.data.length) throw new Error('The binary COPY data ends early.');
  }
  int16(): number {
    this.need(2);
    const value = this.data.readInt16BE(this.at);
    this.at += 2;
    return value;
  }
  int32(): number {
    this.need(4);
    const value = this.data.readInt32BE(this.at);
    this.at += 4;
    return value;
  }
  bytes(length: number): Buffer {
    if (length < 0) throw new Error('A binary COPY field has a negative length.');
    this.need(length);
    const value = this.data.subarray(this.at, this.at + length);
    this.at += length;
    return value;
  }
  done(): boolean {
    return this.at === this.data.length;
  }
}

/**
 * The values of a binary COPY of one column, in row order (null for NULL), each a view of `data`:
 * its header checked, every row of exactly one field, and nothing after the trailer.
 */
export function binaryCopyColumn(data: Buffer): (Buffer | null)[] {
  const reader = new CopyReader(data);
  if (!reader.bytes(SIGNATURE.length).equals(SIGNATURE)) throw new Error('Not binary COPY data.');
  reader.int32(); // flags: none that change how rows are read (bit 16, OIDs, is gone since PostgreSQL 12)
  const extension = reader.int32();
  if (extension < 0) throw new Error('The binary COPY header is not readable.');
  reader.bytes(extension);
  const values: (Buffer | null)[] = [];
  for (let fields = reader.int16(); fields !== -1; fields = reader.int16()) {
    if (fields !== 1) throw new Error(`A binary COPY row has ${fields} fields, not 1.`);
    const length = reader.int32();
    values.push(length === -1 ? null : reader.bytes(length));
  }
  if (!reader.done()) throw new Error('The binary COPY data goes on after its end.');
  return values;
}

/**
 * The values of a binary COPY of one column joined into one buffer, written over `data` itself
 * (each row's length moved out of the way) instead of into a second buffer as large; NULLs add
 * nothing. `data` is not to be read otherwise afterwards.
 */
export function joinedBinaryCopyColumn(data: Buffer): { rows: number; bytes: Buffer } {
  const values = binaryCopyColumn(data);
  let end = 0;
  for (const value of values) {
    if (!value) continue;
    // Each value lies at or after `end` in the same memory: copied forwards, overlapping or not.
    end += value.copy(data, end);
  }
  return { rows: values.length, bytes: data.subarray(0, end) };
}
