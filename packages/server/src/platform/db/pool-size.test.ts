import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DEFAULT_POOL_SIZE, openDb } from './index.ts';

// The pool opens no connection until a query: a server that is not there is never reached.
const NOWHERE = 'postgresql://postgres@127.0.0.1:1/none';

describe('the PostgreSQL pool size', () => {
  it('is DB_POOL_SIZE, and a sensible default without it', () => {
    expect(loadConfig({}).dbPoolSize).toBe(DEFAULT_POOL_SIZE);
    expect(DEFAULT_POOL_SIZE).toBeGreaterThanOrEqual(10);
    expect(loadConfig({ DB_POOL_SIZE: '40' }).dbPoolSize).toBe(40);
    for (const wrong of ['0', '-1', 'many', '2.5', '501']) {
      expect(() => loadConfig({ DB_POOL_SIZE: wrong })).toThrow(/DB_POOL_SIZE/);
    }
  });

  it('bounds the connections the pool opens', async () => {
    const sized = await openDb({ databaseUrl: NOWHERE, poolSize: 7 });
    const plain = await openDb({ databaseUrl: NOWHERE });
    try {
      expect(sized.pgPool?.options.max).toBe(7);
      expect(plain.pgPool?.options.max).toBe(DEFAULT_POOL_SIZE);
    } finally {
      await sized.close();
      await plain.close();
    }
  });
});
