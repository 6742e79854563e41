import type pg from 'pg';
import { BINARY_COPY_SIGNATURE } from './copy-out.ts';
import { CopyStatement, runCopy } from './copy-statement.ts';

/**
 * Binary COPY into PostgreSQL: rows written to the server's connection as they are. A `bytea`
 * given to a query as a parameter is copied by the driver into a buffer of its own, new for each
 * statement (about 200 ms of the server's CPU for the 58 MiB a 20 MiB import stores); here the
 * values' bytes go to the socket as they are, and a file of many parts is one statement.
 */

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

/** Values up to this size go into the framing around them; larger ones are written as they are. */
const INLINE_BYTES = 4096;

/** The largest row written: a field of PostgreSQL holds at most 1 GB. */
const MAX_ROW_BYTES = 1024 * 1024 * 1024;

/** A CopyData message's code, and CopyDone's whole message. */
const COPY_DATA = 0x64;
const COPY_DONE = Buffer.from([0x63, 0, 0, 0, 4]);

/** The bytes a row takes in a binary COPY: its field count, and each field's length and value. */
function rowBytes(row: readonly CopyValue[]): number {
  return row.reduce((n, value) => n + 4 + (value?.byteLength ?? 0), 2);
}

/**
 * The binary COPY's data as CopyData messages, one for the header, one per row and one for the
 * trailer; small pieces are gathered into buffers of their own, large values are given as they are.
 */
export function copyMessages(rows: readonly (readonly CopyValue[])[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let small: number[] = [];
  const flush = () => {
    if (small.length > 0) out.push(Buffer.from(small));
    small = [];
  };
  const int = (value: number, size: 2 | 4) => {
    for (let shift = (size - 1) * 8; shift >= 0; shift -= 8) small.push((value >>> shift) & 0xff);
  };
  const message = (bytes: number) => {
    small.push(COPY_DATA);
    int(4 + bytes, 4);
  };
  message(BINARY_COPY_SIGNATURE.length + 8);
  small.push(...BINARY_COPY_SIGNATURE);
  int(0, 4); // flags
  int(0, 4); // header extension's length
  for (const row of rows) {
    const bytes = rowBytes(row);
    // A message's length is a 32-bit integer, and PostgreSQL takes no field over 1 GB.
    if (bytes > MAX_ROW_BYTES) throw new RangeError(`A row of ${bytes} bytes is too large for a COPY.`);
    message(bytes);
    int(row.length, 2);
    for (const value of row) {
      int(value === null ? -1 : value.byteLength, 4);
      if (value === null || value.byteLength === 0) continue;
      if (value.byteLength <= INLINE_BYTES) small.push(...value);
      else {
        flush();
        out.push(value);
      }
    }
  }
  message(2);
  int(-1, 2);
  flush();
  return out;
}

/**
 * The statement that gives the connection the COPY, its data written right after it, without
 * waiting for the server to ask for it: one round trip instead of two. Should the statement fail
 * before the COPY starts, or the server refuse a row, the server ignores the data that follows
 * its error, as the protocol says.
 */
class CopyIn extends CopyStatement {
  /** The rows the server took, once it has answered. */
  copied = 0;
  constructor(
    private readonly text: string,
    private readonly data: Uint8Array[],
  ) {
    super();
  }
  submit(connection: pg.Connection): void {
    const socket = connection.stream;
    socket.cork();
    connection.query(this.text);
    for (const bytes of this.data) socket.write(bytes);
    socket.write(COPY_DONE);
    socket.uncork();
  }
  /** The server asks for the data, which is already on its way. */
  handleCopyInResponse(): void {}
  override handleCommandComplete(message: { text?: string }): void {
    this.copied = Number(/^COPY (\d+)$/.exec(message.text ?? '')?.[1] ?? 0);
  }
}

/**
 * Runs `COPY <into> FROM STDIN WITH (FORMAT binary)` on a connection of the pool with `rows`, each
 * value in its column's binary form, and answers how many rows the server took. One statement:
 * all the rows or none. `into` is text (a table and its columns), never a caller's input. The
 * values' bytes are written to the connection as they are: the caller leaves them unchanged until
 * this answers. A connection whose COPY failed is closed, not handed back.
 */
export async function copyInBinary(pool: pg.Pool, into: string, rows: readonly (readonly CopyValue[])[]): Promise<number> {
  const statement = new CopyIn(`copy ${into} from stdin with (format binary)`, copyMessages(rows));
  await runCopy(pool, statement);
  return statement.copied;
}
