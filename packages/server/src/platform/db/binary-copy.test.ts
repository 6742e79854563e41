import { describe, expect, it } from 'vitest';
import { binaryCopyColumn, binaryCopyData, binaryCopyFraming, int4, joinedBinaryCopyColumn, text } from './binary-copy.ts';

// Binary COPY data written and read by hand, field by field, as PostgreSQL's COPY documentation lays it out.
const signature = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];
const int16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const int32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const header = (extension: number[] = []) => [...signature, ...int32(0), ...int32(extension.length), ...extension];
const row = (value: number[] | null) => [...int16(1), ...(value === null ? int32(-1) : [...int32(value.length), ...value])];
const trailer = int16(-1);
const data = (...parts: number[][]) => Buffer.from(parts.flat());

describe('binary COPY of one column', () => {
  it('answers each row’s value in order, a NULL as null and an empty value as empty bytes', () => {
    const values = binaryCopyColumn(data(header(), row([1, 2, 255]), row(null), row([]), row([0]), trailer));
    expect(values.map((v) => (v === null ? null : [...v]))).toEqual([[1, 2, 255], null, [], [0]]);
  });

  it('skips a header extension and reads a COPY of no rows', () => {
    expect(binaryCopyColumn(data(header([9, 9, 9]), row([7]), trailer)).map((v) => v && [...v])).toEqual([[7]]);
    expect(binaryCopyColumn(data(header(), trailer))).toEqual([]);
  });

  it('refuses data that is not a binary COPY, or whose rows are of another shape', () => {
    expect(() => binaryCopyColumn(Buffer.from('key\tbytes\n'))).toThrow(/early|Not binary/);
    expect(() => binaryCopyColumn(data([...signature.slice(0, 10), 0x01], int32(0), int32(0), trailer))).toThrow(
      'Not binary COPY data.',
    );
    expect(() => binaryCopyColumn(data(header(), int16(2), int32(1), [1], int32(1), [2], trailer))).toThrow('2 fields');
    expect(() => binaryCopyColumn(data(header(), int16(1), int32(-5), trailer))).toThrow('negative length');
    expect(() => binaryCopyColumn(data(signature, int32(0), int32(-1), trailer))).toThrow('header');
  });

  it('refuses data cut short anywhere, and data going on after its end', () => {
    const whole = data(header(), row([1, 2, 3, 4]), row([5]), trailer);
    for (let length = 0; length < whole.length; length++) {
      expect(() => binaryCopyColumn(whole.subarray(0, length))).toThrow();
    }
    expect(() => binaryCopyColumn(Buffer.concat([whole, Buffer.from([0])]))).toThrow('goes on after its end');
  });

  it('answers views of the data, not copies', () => {
    const whole = data(header(), row([1, 2, 3]), trailer);
    const [value] = binaryCopyColumn(whole);
    expect(value?.buffer).toBe(whole.buffer);
  });

  it('joins the values in place of the data, in order, NULLs adding nothing, and counts the rows', () => {
    const values = Array.from({ length: 30 }, (_, i) =>
      Array.from({ length: 1 + ((i * 37) % 200) }, (_, j) => (i * 7 + j) & 0xff),
    );
    const whole = data(header([1, 2]), ...values.flatMap((v, i) => (i === 3 ? [row(null), row(v)] : [row(v)])), trailer);
    const { rows, bytes } = joinedBinaryCopyColumn(whole);
    expect(rows).toBe(31);
    expect([...bytes]).toEqual(values.flat());
    expect(bytes.buffer).toBe(whole.buffer);
    expect(joinedBinaryCopyColumn(data(header(), trailer))).toMatchObject({ rows: 0, bytes: Buffer.alloc(0) });
  });
  it('counts the framing a COPY of one column adds to its values', () => {
    const rows = [[1, 2, 3], [], [4]];
    const copy = data(header(), ...rows.map(row), trailer);
    expect(binaryCopyFraming(rows.length)).toBe(copy.length - rows.flat().length);
  });
});

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

describe('binary COPY data written', () => {
  it('writes a header, each row and a trailer, every value in its place', () => {
    const big = Buffer.alloc(10_000, 7);
    const pieces = binaryCopyData([
      [text('ä'), int4(-2), null, Buffer.alloc(0)],
      [int4(1), big],
    ]);
    expect(pieces.length).toBe(3);
    expect(rowsOf(Buffer.concat(pieces))).toEqual([
      [[0xc3, 0xa4], [0xff, 0xff, 0xff, 0xfe], null, []],
      [[0, 0, 0, 1], [...big]],
    ]);
  });

  it('gives a large value as the caller’s bytes, not a copy, and a view only as far as it goes', () => {
    const under = Buffer.alloc(100_000, 1);
    const view = under.subarray(10, 90_010);
    const pieces = binaryCopyData([[view]]);
    expect(pieces).toContain(view);
    expect(rowsOf(Buffer.concat(pieces))[0]?.[0]?.length).toBe(90_000);
  });

  it('refuses a row larger than a field may be, before writing anything', () => {
    const huge = new Uint8Array(new ArrayBuffer(0), 0, 0);
    Object.defineProperty(huge, 'byteLength', { value: 1024 * 1024 * 1024 + 1 });
    expect(() => binaryCopyData([[Buffer.alloc(1)], [huge]])).toThrow('too large for a COPY');
  });

  it('writes what its reader reads back', () => {
    const values = [Buffer.from([1, 2]), null, Buffer.alloc(0), Buffer.alloc(5000, 3)];
    const read = binaryCopyColumn(Buffer.concat(binaryCopyData(values.map((v) => [v]))));
    expect(read.map((v) => v && [...v])).toEqual(values.map((v) => v && [...v]));
  });

  it('writes a COPY of no rows', () => {
    expect(rowsOf(Buffer.concat(binaryCopyData([])))).toEqual([]);
  });
});
