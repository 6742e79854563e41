import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { rowsOfStored } from '../../../platform/files/row-tables.ts';
import type { PooledOutcome } from './parse-file.ts';
import { parseWorkerCode } from './parse-worker-code.ts';

const threads = () => fs.readdirSync('/proc/self/task').length;

describe('the parse worker code', () => {
  it('is one script that parses a file in a thread of its own, without a loader', async () => {
    const code = await parseWorkerCode();
    const before = threads();
    const worker = new Worker(code, { eval: true, execArgv: [] });
    try {
      const answer = await new Promise<PooledOutcome>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ bytes: new TextEncoder().encode('a,b\n1,2\n'), group: 'csv', dataModel: null });
      });
      expect(answer.status).toBe('valid');
      expect(rowsOfStored(new TextDecoder().decode(answer.rowsBytes ?? new Uint8Array()))).toEqual([{ a: '1', b: '2' }]);
      // Loading the TypeScript sources in the worker took a thread more for the loader's hooks.
      if (process.platform === 'linux') expect(threads() - before).toBe(1);
    } finally {
      await worker.terminate();
    }
  });

  it('is built once per process', async () => {
    expect(await parseWorkerCode()).toBe(await parseWorkerCode());
  });
});
