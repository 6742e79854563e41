import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { describe, expect, it } from 'vitest';
import type { JsonParts } from '../../platform/files/json-parts.ts';
import { storedRowsJson, tableJson } from '../../platform/files/row-tables.ts';
import type { RunUpload } from '../uploads/uploads.service.ts';
import { skipReason } from './check-wait.ts';
import { gatherInputs, type InputDeps } from './run-inputs.ts';
import { runAuth } from './run-steps.ts';
import { sleep } from './sleep.ts';

// Gathering a run's inputs without a database: the uploads service, the pipelines and the file store are stand-ins.

const pipeline = {
  _id: 'p1',
  name: 'prices',
  masterPipeline: null,
  dataSources: [{ dataSubKind: 'prices', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: null }],
} as unknown as PipelineView;

function upload(id: string, status: RunUpload['status'], extra: Partial<RunUpload> = {}): RunUpload {
  return {
    _id: id,
    pipelineId: 'p1',
    from: 'source',
    dataSubKind: 'prices',
    status,
    createdAt: '2026-11-25T00:00:00.000Z',
    originalFilename: `${id}.csv`,
    contentType: 'text/csv',
    size: 10,
    rowCount: 1,
    importId: null,
    enabled: true,
    importedAt: null,
    importedBy: null,
    sentFrom: 'wizard',
    rowsKey: status === 'valid' ? `rows-${id}` : null,
    ...extra,
  };
}

/** Stand-ins: `listed` is what the run takes; `checks` answers the uploads' states at each later look. */
function depsOf(listed: RunUpload[], checks: RunUpload[][] = [], waitForChecksMs = 1000, checkEnded = sleep) {
  const looks: string[][] = [];
  const deps: InputDeps = {
    waitForChecksMs,
    pipelines: { stored: async () => undefined },
    uploads: {
      runUploads: async () => listed,
      current: async (ids) => {
        looks.push([...ids]);
        const now = checks[Math.min(looks.length - 1, checks.length - 1)] ?? [];
        return now.filter((u) => ids.includes(u._id));
      },
      checkEnded,
      fetchRealtime: async () => [],
    },
    files: { get: async (key) => Buffer.from(storedRowsJson([tableJson([{ code: key.replace('rows-', '') }])])) },
  };
  return { deps, looks };
}

/** The text the parts of a run's input make. */
const textOf = (parts: JsonParts) => parts.map((p) => (typeof p === 'string' ? p : new TextDecoder().decode(p))).join('');

async function gather(deps: InputDeps, signal = new AbortController().signal) {
  const lines: string[] = [];
  const inputs = await gatherInputs(deps, pipeline, runAuth({ user_id: null }), async (_l, m) => void lines.push(m), signal);
  return {
    inputs,
    lines,
    codes: () => JSON.parse(textOf(inputs.inputJson)).prices.flatMap((t: { data: string[][] }) => t.data[0]),
  };
}

describe('gatherInputs', () => {
  it('takes every upload listed, oldest first, without waiting when all are checked', async () => {
    const listed = Array.from({ length: 12 }, (_, i) => upload(`u${i}`, 'valid'));
    const { deps, looks } = depsOf(listed);
    const { inputs, codes } = await gather(deps);
    expect(inputs.rowCount).toBe(12);
    expect(codes()).toEqual(listed.map((u) => u._id));
    expect(looks).toEqual([]);
  });

  it('waits for the uploads being checked, says so, and takes those found valid', async () => {
    const { deps, looks } = depsOf(
      [upload('a', 'valid'), upload('b', 'processing'), upload('c', 'pending')],
      [
        [upload('b', 'processing'), upload('c', 'valid')],
        [upload('b', 'valid'), upload('c', 'valid')],
      ],
    );
    const { lines, codes } = await gather(deps);
    expect(lines[0]).toBe('Waiting up to 1 s for the check of b.csv, c.csv.');
    expect(looks).toEqual([['b', 'c'], ['b']]);
    expect(codes()).toEqual(['a', 'b', 'c']);
  });

  it('looks again as soon as a check of this instance ends, not a poll later', async () => {
    let ended: () => void = () => {};
    const checkEnded = (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        ended = resolve;
        void sleep(ms, signal).then(resolve);
      });
    const { deps, looks } = depsOf(
      [upload('b', 'processing')],
      [[upload('b', 'processing')], [upload('b', 'valid')]],
      60_000,
      checkEnded,
    );
    setTimeout(() => ended(), 20);
    const started = Date.now();
    const { codes } = await gather(deps);
    expect(codes()).toEqual(['b']);
    expect(looks).toEqual([['b'], ['b']]);
    expect(Date.now() - started).toBeLessThan(150);
  });

  it('writes the lines of the uploads it takes in one go, in order, when the logs can', async () => {
    const listed = Array.from({ length: 20 }, (_, i) => upload(`u${i}`, 'valid'));
    const writes: string[][] = [];
    const say = Object.assign(async (_l: string, m: string) => void writes.push([m]), {
      all: async (lines: readonly (readonly [string, string, (string | null)?])[]) => void writes.push(lines.map((l) => l[1])),
    });
    const inputs = await gatherInputs(
      depsOf(listed).deps,
      pipeline,
      runAuth({ user_id: null }),
      say,
      new AbortController().signal,
    );
    expect(inputs.rowCount).toBe(20);
    expect(writes).toEqual([listed.map((u) => `Input prices: 1 row from ${u._id}.csv.`)]);
  });

  it('skips, saying why, the uploads found invalid, switched off or still being checked when the wait ends', async () => {
    const { deps } = depsOf(
      [upload('a', 'valid'), upload('b', 'processing'), upload('c', 'processing'), upload('d', 'processing')],
      [[upload('b', 'invalid'), upload('c', 'valid', { enabled: false }), upload('d', 'processing')]],
      300,
    );
    const { lines, codes } = await gather(deps);
    expect(lines).toEqual(
      expect.arrayContaining([
        'Input prices: b.csv skipped: its check found it invalid.',
        'Input prices: c.csv skipped: it was switched off.',
        'Input prices: d.csv skipped: its check did not end within 1 s.',
      ]),
    );
    expect(codes()).toEqual(['a']);
  });

  it("fails with 'No enabled valid upload' when nothing is left to take", async () => {
    await expect(gather(depsOf([]).deps)).rejects.toThrow('No enabled valid upload for data source prices.');
    const invalid = depsOf([upload('b', 'pending')], [[upload('b', 'invalid')]]).deps;
    await expect(gather(invalid)).rejects.toThrow('No enabled valid upload for data source prices.');
  });

  it('stops waiting at once when the run is stopped', async () => {
    const { deps } = depsOf([upload('b', 'processing')], [[upload('b', 'processing')]], 60_000);
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort('stop'), 50);
    await expect(gather(deps, controller.signal)).rejects.toBe('stop');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('skipReason', () => {
  it('takes a valid enabled upload with its rows, and says why any other is not', () => {
    expect(skipReason(upload('a', 'valid'), 60)).toBeNull();
    expect(skipReason(undefined, 60)).toBe('it no longer exists');
    expect(skipReason(upload('a', 'valid', { rowsKey: null }), 60)).toBe('its checked rows are not stored');
    expect(skipReason(upload('a', 'pending'), 60)).toBe('its check did not end within 60 s');
  });
});
