import { afterAll, describe, expect, test } from 'vitest';
import { component, MemorySource, memoryRuntime } from '../../test/test-runtime.ts';
import type { JsonParts } from '../platform/files/json-parts.ts';

// A payload given in parts (an import's stored rows files, as read): texts, and UTF-8 bytes that
// are handed over to the isolate and decoded there.

const source = new MemorySource();
const rt = memoryRuntime(source);
afterAll(() => rt.close());

const echo = component({
  name: 'Echo',
  kind: 'instruction',
  inputs: ['rows'],
  outputs: ['rows'],
  jsCode: 'ctx.output.rows = ctx.input.rows;',
});
source.add(echo);

async function echoed(parts: JsonParts): Promise<unknown> {
  const outcome = await rt.runComponent({ componentId: echo._id, inputJson: parts, checkPorts: false });
  return (JSON.parse(outcome.outputJson) as { rows: unknown }).rows;
}

const bytes = (...values: number[]) => Buffer.from(values);

/** What the parts read as with the server's own decoder. */
function expected(parts: JsonParts): unknown {
  const whole = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  return (JSON.parse(new TextDecoder().decode(whole)) as { rows: unknown }).rows;
}

describe('a payload in parts', () => {
  test('reads as the text its parts make, ill-formed UTF-8 as the server decoder reads it', async () => {
    const illFormed = [
      bytes(0xff),
      bytes(0xc0, 0x80),
      bytes(0xc2),
      bytes(0xe0, 0x80, 0x80),
      bytes(0xed, 0xa0, 0x80),
      bytes(0xf4, 0x90, 0x80, 0x80),
      bytes(0xf5, 0x80),
      bytes(0xe2, 0x82),
      bytes(0xf0, 0x9f, 0x98),
      bytes(0x80, 0xbf),
    ];
    const wellFormed = Buffer.from('aé€😀\u{10FFFF}\u07FF\uFFFD');
    const parts: JsonParts = ['{"rows":["', ...illFormed.flatMap((b) => [b, Buffer.from('|')]), wellFormed, '"]}'];
    const rows = await echoed(parts);
    expect(rows).toEqual(expected(parts));
    expect((rows as string[])[0]).toContain('aé€😀');
  });

  test('reads long texts whole, a character of two code units where its chunk ends included', async () => {
    for (const before of [8189, 8190, 8191, 8192]) {
      const text = `${'a'.repeat(before)}😀${'é'.repeat(20_000)}€${'b'.repeat(9000)}`;
      const parts: JsonParts = ['{"rows":', Buffer.from(JSON.stringify([text])), '}'];
      expect(await echoed(parts)).toEqual([text]);
    }
  });

  test('hands a large part its memory over, copies a small one cut from memory other Buffers share, and reads only a view', async () => {
    const large = Buffer.from(JSON.stringify(Array.from({ length: 2000 }, (_, i) => `row ${i}`)));
    const small = Buffer.from('[1,2]');
    const neighbour = Buffer.from('still here');
    expect(small.buffer).toBe(neighbour.buffer);
    const under = Buffer.from(`xxxx${JSON.stringify(['in the view'])}yyyy`);
    const view = under.subarray(4, under.length - 4);
    const largeRows: unknown = JSON.parse(large.toString());
    const rows = await echoed(['{"rows":[', large, ',', small, ',', view, ']}']);
    expect(rows).toEqual([largeRows, [1, 2], ['in the view']]);
    expect(large.byteLength).toBe(0);
    expect(small.toString()).toBe('[1,2]');
    expect(neighbour.toString()).toBe('still here');
  });
});
