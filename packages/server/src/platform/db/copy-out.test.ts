import { describe, expect, it } from 'vitest';
import { binaryCopyColumn, binaryCopyFraming, CopyData, joinedBinaryCopyColumn } from './copy-out.ts';

// Binary COPY data written by hand, field by field, as PostgreSQL's COPY documentation lays it out.
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
});

describe('a COPY’s data as it comes', () => {
  /** The chunks as the driver hands them: views of one buffer it fills again after each. */
  function arrive(collected: CopyData, whole: Buffer, chunk: number) {
    const reading = Buffer.alloc(chunk);
    for (let at = 0; at < whole.length; at += chunk) {
      const part = whole.subarray(at, at + chunk);
      part.copy(reading);
      collected.add(reading.subarray(0, part.length));
      reading.fill(0xee);
    }
  }

  it('keeps every chunk as it was when it came, in one buffer of the size expected', () => {
    const whole = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    const exact = new CopyData(whole.length);
    arrive(exact, whole, 65_536);
    expect(exact.bytes().equals(whole)).toBe(true);
    expect(exact.bytes().buffer.byteLength).toBe(whole.length);
  });

  it('grows when the data is larger than expected, and never shares Node’s slab of small Buffers', () => {
    const whole = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    for (const expected of [0, 10, 150_000, Number.MAX_SAFE_INTEGER]) {
      const collected = new CopyData(expected);
      arrive(collected, whole, 4096);
      expect(collected.bytes().equals(whole)).toBe(true);
      expect(collected.bytes().buffer.byteLength).toBeGreaterThan(Buffer.poolSize);
      // However much is expected (a size column gone wrong), no more than a bound is set aside.
      expect(collected.bytes().buffer.byteLength).toBeLessThanOrEqual(1024 * 1024 * 1024);
    }
  });

  it('counts the framing a COPY of one column adds to its values', () => {
    const rows = [[1, 2, 3], [], [4]];
    const copy = data(header(), ...rows.map(row), trailer);
    expect(binaryCopyFraming(rows.length)).toBe(copy.length - rows.flat().length);
  });
});
