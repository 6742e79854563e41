import { describe, expect, it } from 'vitest';
import { dataSourceSchema, missingRunFields, sortPipelines } from './pipeline.schemas.ts';

describe('sortPipelines', () => {
  it('lists masters first, then the others, each by name ignoring case', () => {
    const list = [
      { name: 'beta', isMaster: false },
      { name: 'Zulu', isMaster: true },
      { name: 'alpha', isMaster: false },
      { name: 'Alpha master', isMaster: true },
      { name: 'Charlie', isMaster: false },
    ];
    expect(sortPipelines(list).map((p) => p.name)).toEqual(['Alpha master', 'Zulu', 'alpha', 'beta', 'Charlie']);
  });
});

describe('missingRunFields', () => {
  it('names the missing attributes in the order of the spec message', () => {
    const none = { brand: null, datakind: null, productLine: null, locale: null };
    expect(`Missing field(s) : ${missingRunFields(none).join(' ')}`).toBe(
      'Missing field(s) : Brand Data Kind Product Line Locale',
    );
    const ref = { _id: '1', name: 'x' };
    expect(
      missingRunFields({
        brand: ref,
        datakind: { ...ref, isDealer: false },
        productLine: ref,
        locale: { _id: '2', language: 'fr', country: 'FR', name: 'F' },
      }),
    ).toEqual([]);
  });
});

describe('dataSourceSchema', () => {
  it('refuses a dataSubKind that could not name a form field', () => {
    expect(dataSourceSchema.safeParse({ dataSubKind: 'a b', connectorType: 'manual' }).success).toBe(false);
    expect(dataSourceSchema.parse({ dataSubKind: 'prices', connectorType: 'manual' })).toMatchObject({
      contentType: 'csv',
      dataFromMaster: false,
    });
  });
});
