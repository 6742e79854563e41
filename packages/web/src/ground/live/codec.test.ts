import { encode } from '@msgpack/msgpack';
import { describe, expect, it } from 'vitest';
import { changeOf, decodeEnvelope, docsOf } from './codec.ts';

const hex = (value: unknown) => Array.from(encode(value), (b) => b.toString(16).padStart(2, '0')).join('');

describe('live codec (browser)', () => {
  it('decodes the hex MessagePack envelope', () => {
    expect(decodeEnvelope(hex({ subscriptionId: 's', data: [{ _id: '1', n: 2 }] }))).toEqual({
      subscriptionId: 's',
      data: [{ _id: '1', n: 2 }],
    });
  });

  it('refuses what is not hex or not an envelope', () => {
    expect(() => decodeEnvelope('zz')).toThrow('Live data is not hex text');
    expect(() => decodeEnvelope(42)).toThrow('Live data is not hex text');
    expect(() => decodeEnvelope(hex({ data: [] }))).toThrow('Live data without subscriptionId and data');
  });

  it('keeps only documents, and only the three operations', () => {
    expect(docsOf([{ _id: '1' }, { id: 2 }, null])).toEqual([{ _id: '1' }]);
    expect(changeOf({ operationType: 'delete', documentKey: { _id: '1' }, fullDocument: null })).toEqual({
      operationType: 'delete',
      documentKey: { _id: '1' },
      fullDocument: null,
    });
    expect(() => changeOf({ operationType: 'drop', documentKey: { _id: '1' } })).toThrow('Unsupported operationType');
  });
});
