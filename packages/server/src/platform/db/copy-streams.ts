import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { binaryCopyData, type CopyValue } from './binary-copy.ts';

/**
 * Binary COPY in and out of PostgreSQL through pg-copy-streams. A `bytea` read by a plain query
 * comes as hex text, twice its size, which the driver then decodes (a 20 MiB file took about 180 ms
 * of the server's CPU that way, about 70 ms as a COPY: `bench/files`); one given as a parameter is
 * copied by the driver into a buffer new for each statement. A COPY moves the bytes as they are.
 */

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

/** Runs `work` on a connection of the pool; a connection whose COPY failed is closed, not handed back. */
async function onConnection<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    const answer = await work(client);
    client.release();
    return answer;
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/**
 * Runs `COPY (<query>) TO STDOUT WITH (FORMAT binary)` on a connection of the pool and answers
 * its data whole, in one buffer of its own sized `expectedBytes` to begin with (see `CopyData`).
 * The query is text: values in it must be literals, quoted by the caller.
 */
export function copyOutBinary(pool: pg.Pool, query: string, expectedBytes = 0): Promise<Buffer> {
  return onConnection(pool, async (client) => {
    const data = new CopyData(expectedBytes);
    for await (const chunk of client.query(copyTo(`copy (${query}) to stdout with (format binary)`))) data.add(chunk);
    return data.bytes();
  });
}

/**
 * Runs `COPY <into> FROM STDIN WITH (FORMAT binary)` on a connection of the pool with `rows`, each
 * value in its column's binary form, and answers how many rows the server took. One statement:
 * all the rows or none. `into` is text (a table and its columns), never a caller's input. The
 * values' bytes are written to the connection as they are: the caller leaves them unchanged until
 * this answers.
 */
export function copyInBinary(pool: pg.Pool, into: string, rows: readonly (readonly CopyValue[])[]): Promise<number> {
  const data = binaryCopyData(rows);
  return onConnection(pool, async (client) => {
    const copy = client.query(copyFrom(`copy ${into} from stdin with (format binary)`));
    await pipeline(Readable.from(data, { objectMode: false }), copy);
    return copy.rowCount;
  });
}
