import { describe, expect, it } from 'vitest';
import { writeAsTheyCome } from './file-store.ts';
import { unwritten } from './local-file-store.ts';

const bytes = (...values: number[]) => new Uint8Array(values);

/** A write held until released, recording each batch it was given. */
function heldWrites() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  const write = (batch: Uint8Array[]) => {
    batches.push(batch.flatMap((chunk) => [...chunk]));
    return new Promise<void>((resolve) => releases.push(resolve));
  };
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batches, write, releaseAll };
}

describe('writeAsTheyCome', () => {
  it('reads every chunk while the first write is still running, then writes the rest together, in order', async () => {
    const writes = heldWrites();
    let read = 0;
    async function* chunks() {
      for (const value of [1, 2, 3, 4]) {
        read++;
        yield bytes(value);
      }
    }
    const done = writeAsTheyCome(chunks(), writes.write);
    await new Promise((resolve) => setImmediate(resolve));
    // The first write has not answered, and the reading went on to the end.
    expect(read).toBe(4);
    expect(writes.batches).toEqual([[1]]);
    await writes.releaseAll();
    await done;
    expect(writes.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('waits for the writes once what came meanwhile reaches its bound', async () => {
    const writes = heldWrites();
    let read = 0;
    async function* chunks() {
      for (const value of [1, 2, 3, 4, 5]) {
        read++;
        yield bytes(value, value);
      }
    }
    const done = writeAsTheyCome(chunks(), writes.write, 4);
    await new Promise((resolve) => setImmediate(resolve));
    // The first chunk is being written; the next two (4 bytes) wait for it, and the reading with them.
    expect(read).toBe(3);
    await writes.releaseAll();
    await done;
    expect(read).toBe(5);
    expect(writes.batches.flat()).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
  });

  it('stops reading at a failed write and throws its error once the writes have settled', async () => {
    let read = 0;
    async function* chunks() {
      for (let i = 0; i < 100; i++) {
        read++;
        yield bytes(i);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const failing = async () => {
      throw new Error('disk full');
    };
    await expect(writeAsTheyCome(chunks(), failing)).rejects.toThrow('disk full');
    expect(read).toBeLessThan(100);
  });

  it('waits for the write in flight before it passes on a failure of the chunks', async () => {
    const writes = heldWrites();
    let settled = false;
    async function* chunks() {
      yield bytes(1);
      throw new Error('too large');
    }
    const failure = writeAsTheyCome(chunks(), writes.write).then(
      () => null,
      (error: unknown) => {
        settled = true;
        return error;
      },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await writes.releaseAll();
    expect(await failure).toEqual(new Error('too large'));
  });
});

describe('unwritten', () => {
  const left = (pieces: Uint8Array[], written: number) => unwritten(pieces, written).map((p) => [...p]);

  it('keeps what a write did not take, cutting into the piece it stopped in', () => {
    const pieces = [bytes(1, 2, 3), bytes(4, 5), bytes(6)];
    expect(left(pieces, 0)).toEqual([[1, 2, 3], [4, 5], [6]]);
    expect(left(pieces, 2)).toEqual([[3], [4, 5], [6]]);
    expect(left(pieces, 3)).toEqual([[4, 5], [6]]);
    expect(left(pieces, 4)).toEqual([[5], [6]]);
    expect(left(pieces, 6)).toEqual([]);
  });

  it('cuts views of the pieces, not copies', () => {
    const piece = bytes(1, 2, 3, 4);
    const [rest] = unwritten([piece], 1);
    expect(rest?.buffer).toBe(piece.buffer);
    expect(rest?.byteOffset).toBe(1);
  });
});
