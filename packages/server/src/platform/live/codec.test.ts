import { decode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { envelopeHex, envelopePrefixHex, packHex } from './codec.ts';

describe('live codec', () => {
  it('sends {subscriptionId, data} as hex MessagePack that a client decodes', () => {
    const data = { operationType: 'insert', documentKey: { _id: '7' }, fullDocument: { _id: '7', message: 'héllo' } };
    const hex = envelopeHex('sub-1', packHex(data));
    expect(hex).toMatch(/^[0-9a-f]+$/);
    expect(decode(Buffer.from(hex, 'hex'))).toEqual({ subscriptionId: 'sub-1', data });
  });

  it('composes the same text from a prefix kept per subscription', () => {
    const dataHex = packHex([{ _id: '1' }, { _id: '2' }]);
    const long = 'x'.repeat(300);
    expect(decode(Buffer.from(envelopePrefixHex(long) + dataHex, 'hex'))).toEqual({
      subscriptionId: long,
      data: [{ _id: '1' }, { _id: '2' }],
    });
  });

  it('leaves undefined fields out and keeps successive encodings apart', () => {
    const a = packHex({ a: 1, b: undefined });
    const b = packHex({ c: 'longer value than before' });
    expect(decode(Buffer.from(a, 'hex'))).toEqual({ a: 1 });
    expect(decode(Buffer.from(b, 'hex'))).toEqual({ c: 'longer value than before' });
  });
});
