import type pg from 'pg';
import { CopyStatement, runCopy } from './copy-statement.ts';

/**
 * Binary COPY out of PostgreSQL: a query's rows as the server writes them, bytes as bytes. A
 * `bytea` read by a plain query comes as hex text, twice its size, which the driver then decodes:
 * a 20 MiB file took about 180 ms of the server's CPU that way, about 70 ms this way (`bench/files`).
 * node-postgres cannot be asked for binary results of a plain query: its parser hands them back as
 * text.
 */

/** The first bytes of a binary COPY's data. */
export const BINARY_COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** Size of a binary COPY's data besides its values: the header and trailer, and each row's field count and length. */
export function binaryCopyFraming(rows: number): number {
  return BINARY_COPY_SIGNATURE.length + 8 + 2 + rows * 6;
}

const MIN_BYTES = 64 * 1024;
const MAX_EXPECTED_BYTES = 1024 * 1024 * 1024;

/**
 * A COPY's data as it comes, each chunk copied once into one buffer: a buffer of the size expected
 * to begin with, twice as large whenever that falls short. Copying into new memory is what a copy
 * costs (60–80 ms for 20 MiB on a 2-core machine, 2 ms into memory in use), and collecting the
 * chunks to join them at the end took two such copies.
 */
export class CopyData {
  private buffer: Buffer;
  private used = 0;
  constructor(expectedBytes: number) {
    // Never smaller than Node's slab of small Buffers (a buffer of its own, which its reader may
    // hand over), nor larger than a bound, whatever is expected: beyond it, the buffer grows.
    this.buffer = Buffer.allocUnsafe(Math.min(Math.max(expectedBytes, MIN_BYTES), MAX_EXPECTED_BYTES));
  }
  add(chunk: Uint8Array): void {
    if (this.used + chunk.length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.used + chunk.length));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    this.buffer.set(chunk, this.used);
    this.used += chunk.length;
  }
  /** What came, as a view of the buffer. */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.used);
  }
}

/** The query that gives the pool's connection the COPY, collecting its data until it ends. */
class CopyOut extends CopyStatement {
  constructor(
    private readonly text: string,
    private readonly data: CopyData,
  ) {
    super();
  }
  submit(connection: pg.Connection): void {
    connection.query(this.text);
  }
  handleCopyData(message: { chunk: Buffer }): void {
    // A view of the driver's own buffer, which it fills again with what comes next: copied now.
    this.data.add(message.chunk);
  }
}

/**
 * Runs `COPY (<query>) TO STDOUT WITH (FORMAT binary)` on a connection of the pool and answers
 * its data whole, in one buffer of its own sized `expectedBytes` to begin with (see `CopyData`).
 * The query is text: values in it must be literals, quoted by the caller. A connection whose COPY
 * failed is closed, not handed back.
 */
export async function copyOutBinary(pool: pg.Pool, query: string, expectedBytes = 0): Promise<Buffer> {
  const data = new CopyData(expectedBytes);
  await runCopy(pool, new CopyOut(`copy (${query}) to stdout with (format binary)`, data));
  return data.bytes();
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
  if (!reader.bytes(BINARY_COPY_SIGNATURE.length).equals(BINARY_COPY_SIGNATURE)) throw new Error('Not binary COPY data.');
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
