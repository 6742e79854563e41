import { describe, expect, it } from 'vitest';
import { CopyData } from './copy-streams.ts';

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
});
