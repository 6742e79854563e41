import { describe, expect, it } from 'vitest';
import { copyMessages, int4, text } from './copy-in.ts';

// The protocol's messages and the binary COPY's layout, written by hand as PostgreSQL's
// documentation lays them out, to read back what `copyMessages` wrote.
const signature = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];

/** The CopyData messages' payloads, each message's code and length checked. */
function payloads(messages: Uint8Array[]): Buffer[] {
  const all = Buffer.concat(messages);
  const out: Buffer[] = [];
  for (let at = 0; at < all.length; ) {
    expect(all[at]).toBe(0x64);
    const length = all.readInt32BE(at + 1);
    out.push(all.subarray(at + 5, at + 1 + length));
    at += 1 + length;
  }
  return out;
}

/** The rows of a binary COPY's data, each field's bytes (null for NULL). */
function rowsOf(data: Buffer): (number[] | null)[][] {
  expect([...data.subarray(0, 11)]).toEqual(signature);
  expect(data.readInt32BE(11)).toBe(0);
  expect(data.readInt32BE(15)).toBe(0);
  const rows: (number[] | null)[][] = [];
  let at = 19;
  for (let fields = data.readInt16BE(at); fields !== -1; fields = data.readInt16BE(at)) {
    at += 2;
    const row: (number[] | null)[] = [];
    for (let f = 0; f < fields; f++) {
      const length = data.readInt32BE(at);
      at += 4;
      row.push(length === -1 ? null : [...data.subarray(at, at + length)]);
      at += Math.max(length, 0);
    }
    rows.push(row);
  }
  expect(at + 2).toBe(data.length);
  return rows;
}

describe('binary COPY in: the messages written', () => {
  it('writes a header, a message a row and a trailer, every value in its place', () => {
    const big = Buffer.alloc(10_000, 7);
    const messages = copyMessages([
      [text('ä'), int4(-2), null, Buffer.alloc(0)],
      [int4(1), big],
    ]);
    const parts = payloads(messages);
    expect(parts.length).toBe(4);
    expect(rowsOf(Buffer.concat(parts))).toEqual([
      [[0xc3, 0xa4], [0xff, 0xff, 0xff, 0xfe], null, []],
      [[0, 0, 0, 1], [...big]],
    ]);
  });

  it('gives a large value as the caller’s bytes, not a copy, and a view only as far as it goes', () => {
    const under = Buffer.alloc(100_000, 1);
    const view = under.subarray(10, 90_010);
    const messages = copyMessages([[view]]);
    expect(messages).toContain(view);
    expect(rowsOf(Buffer.concat(payloads(messages)))[0]?.[0]?.length).toBe(90_000);
  });

  it('refuses a row larger than a field may be, before writing anything', () => {
    const huge = new Uint8Array(new ArrayBuffer(0), 0, 0);
    Object.defineProperty(huge, 'byteLength', { value: 1024 * 1024 * 1024 + 1 });
    expect(() => copyMessages([[huge]])).toThrow('too large for a COPY');
  });

  it('writes a COPY of no rows', () => {
    expect(rowsOf(Buffer.concat(payloads(copyMessages([]))))).toEqual([]);
  });
});
