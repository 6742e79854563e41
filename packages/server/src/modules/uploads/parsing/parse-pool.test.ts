import { describe, expect, it } from 'vitest';
import { createParsePool } from './parse-pool.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('parse pool', () => {
  it('parses in a worker thread and answers the outcome', async () => {
    const pool = createParsePool({ concurrency: 2 });
    const out = await pool.parse({ bytes: enc('a,b\n1,2\n3,4\n'), group: 'csv', dataModel: null });
    expect(out.status).toBe('valid');
    expect(out.rowCount).toBe(2);
    expect(JSON.parse(new TextDecoder().decode(out.rowsBytes ?? new Uint8Array()))).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4' },
    ]);
  });

  it('leaves the caller its bytes, and parses the next files in the worker it booted meanwhile', async () => {
    const pool = createParsePool({ concurrency: 1 });
    // A buffer of its own (not a slice of Node's shared pool), as a file read answers.
    const bytes = Buffer.alloc(8, 'a,b\n1,2\n');
    for (let i = 0; i < 3; i++) {
      const out = await pool.parse({ bytes, group: 'csv', dataModel: null });
      expect(out.status).toBe('valid');
      expect(bytes.toString()).toBe('a,b\n1,2\n');
    }
  });

  it('answers invalid when a parse exceeds its memory cap, and keeps working', async () => {
    const pool = createParsePool({ concurrency: 1, maxMemoryMb: 32 });
    const wide = `a,b,c,d,e\n${'aaaaaaaaaa,bbbbbbbbbb,cccccccccc,dddddddddd,eeeeeeeeee\n'.repeat(400_000)}`;
    const out = await pool.parse({ bytes: enc(wide), group: 'csv', dataModel: null });
    expect(out.status).toBe('invalid');
    expect(out.summary).toBe('The file needs too much memory to read.');
    const next = await pool.parse({ bytes: enc('a\n1\n'), group: 'csv', dataModel: null });
    expect(next.status).toBe('valid');
  });

  it('answers invalid when a parse takes too long', async () => {
    const pool = createParsePool({ concurrency: 1, timeoutMs: 50 });
    const big = `a,b\n${'1,2\n'.repeat(2_000_000)}`;
    const out = await pool.parse({ bytes: enc(big), group: 'csv', dataModel: null });
    expect(out.status).toBe('invalid');
    expect(out.summary).toBe('The file took too long to read.');
  });
});
