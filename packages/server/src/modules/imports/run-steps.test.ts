import { IMPORT_MESSAGES } from '@gdb/shared/imports/import-rules';
import type { DataSink, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../logs/logs.service.ts';
import type { ComponentRunRequest } from './component-runner.ts';
import { csvOnlyPorts, csvUploads } from './csv-upload.ts';
import { componentToRun, runComponent, runContextOf, sandboxOutputOf } from './run-component.ts';
import { RunStepError } from './run-errors.ts';
import { failureEnd, failureMessage } from './run-finish.ts';
import { writeSinks } from './run-sinks.ts';

// The steps of a run that need no database: run the component, write the sinks, and how a failed run ends.

const sinks: DataSink[] = [
  { name: 'out', format: 'CSV', target: null },
  { name: 'store', format: 'JSON', target: { table: 'prices', keyFields: ['code'] } },
];
const pipeline = {
  _id: 'p1',
  name: 'prices',
  version: 2,
  isMaster: false,
  component: 'c1',
  brand: { _id: 'b', name: 'B' },
  locale: { _id: 'l', language: 'fr', country: 'FR', name: 'fr-FR' },
  productLine: { _id: 'pl', name: 'PL' },
  datakind: { _id: 'd', name: 'D', isDealer: true },
  dataSources: [{ dataSubKind: 'prices', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: null }],
  dataSinks: sinks,
} as unknown as PipelineView;
const row = { id: 'i1', user_id: 'u1', job_id: 'j1' };

/** A file store keeping what it is given, by key. */
function memoryFiles() {
  const stored = new Map<string, Buffer>();
  let aborted = 0;
  return {
    stored,
    aborted: () => aborted,
    put: async (bytes: Uint8Array) => {
      const key = `k${stored.size + 1}`;
      stored.set(key, Buffer.from(bytes));
      return key;
    },
    writer() {
      const parts: Uint8Array[] = [];
      return {
        write: (bytes: Uint8Array) => void parts.push(bytes),
        done: async () => {
          const key = `w${stored.size + 1}`;
          stored.set(key, Buffer.concat(parts));
          return key;
        },
        abort: async () => {
          aborted += 1;
        },
      };
    },
  };
}

describe('run the component', () => {
  it('refuses a pipeline that cannot run, with the reason shown in the logs', () => {
    expect(componentToRun(pipeline)).toBe('c1');
    expect(() => componentToRun({ ...pipeline, component: null })).toThrow('The pipeline has no component to run.');
    expect(() => componentToRun({ ...pipeline, dataSources: [] })).toThrow(IMPORT_MESSAGES.noDataSource);
    expect(() => componentToRun({ ...pipeline, brand: null })).toThrow(RunStepError);
  });

  it('asks the runtime for tables and the CSV-only ports, and reads its answer', async () => {
    let asked: ComponentRunRequest | undefined;
    const runtime = {
      runComponent: async (request: ComponentRunRequest) => {
        asked = request;
        request.csvPieces?.onPiece('out', Buffer.from('code\nA\n'));
        return {
          outputJson: JSON.stringify({ store: { columns: ['code'], data: [['A']] } }),
          outputTables: ['store'],
          outputCsv: { out: Buffer.from('B\n'), sneaky: Buffer.from('x\n') },
          logs: [{ level: 'info' as const, message: 'ran', date: '2026-11-25T00:00:00.000Z' }],
        };
      },
    };
    const files = memoryFiles();
    const csv = csvUploads(files);
    const limits = { memoryMiB: 64, timeoutMs: 1000 };
    const ran = await runComponent(runtime, {
      row,
      pipeline,
      inputJson: ['{}'],
      limits,
      csv,
      signal: new AbortController().signal,
    });
    expect(asked).toMatchObject({ componentId: 'c1', inputJson: ['{}'], tables: true, csvPorts: ['out'], limits });
    expect(JSON.parse(asked?.rtContextJson ?? '')).toEqual(JSON.parse(JSON.stringify(runContextOf(pipeline, row))));
    expect(ran.logs).toMatchObject([{ level: 'info', message: 'ran' }]);
    const output = ran.read();
    expect(output.tables.get('store')).toEqual({ columns: ['code'], data: [['A']] });
    // Only the ports asked for come back as files, whatever the sandbox answers.
    expect([...output.csv.keys()]).toEqual(['out']);
  });

  it("refuses an answer that is no output object, or a table that isn't one", () => {
    const csv = csvUploads(memoryFiles());
    const answer = (outputJson: string, outputTables: string[] = []) => ({ outputJson, outputTables, logs: [] });
    expect(() => sandboxOutputOf(answer('[1]'), [], csv)).toThrow('The component answered no output object.');
    expect(() => sandboxOutputOf(answer('{"t":{"columns":["a"]}}', ['t']), [], csv)).toThrow(
      "The component's output t cannot be read.",
    );
  });
});

describe('write the sinks', () => {
  it('stores one file per sink that got an output, records it, and keeps the download reference for the end', async () => {
    const files = memoryFiles();
    const recorded: unknown[] = [];
    const uploads = {
      storeOutput: async (f: unknown) => {
        recorded.push(f);
        return `up${recorded.length}`;
      },
    };
    const said: string[] = [];
    const run = { importId: 'i1', userId: 'u1', say: async (_l: string, m: string) => void said.push(m), lines: [] as LogLine[] };
    const csv = csvUploads(files);
    csv.of('out').add(Buffer.from('code,price\nA,1\n'));
    const output = {
      ports: { store: [{ code: 'A', price: 1 }] },
      tables: new Map(),
      csv: new Map([['out', { upload: csv.of('out'), last: Buffer.from('B,2\n') }]]),
    };
    const targets = await writeSinks({ files, uploads }, run, pipeline, output);
    expect(targets).toEqual([
      { sink: sinks[0], rows: [] },
      { sink: sinks[1], rows: [{ code: 'A', price: 1 }] },
    ]);
    expect(recorded).toMatchObject([
      { dataSinkName: 'out', contentType: 'text/csv', rowCount: 2, importId: 'i1', createdBy: 'u1' },
      { dataSinkName: 'store', contentType: 'application/json', rowCount: 1 },
    ]);
    expect([...files.stored.values()].map(String)).toContain('code,price\nA,1\nB,2\n');
    expect(run.lines.map((l) => l.message)).toEqual([expect.stringMatching(/^Data download reference : up1 prices_out_/)]);
    expect(said).toEqual([
      expect.stringMatching(/^Data sink out: 2 rows written to /),
      expect.stringMatching(/^Data sink store: 1 rows/),
    ]);
  });

  it('says which sink got no output, and refuses a CSV file whose pieces did not pass', async () => {
    const files = memoryFiles();
    const said: string[] = [];
    const run = { importId: 'i1', userId: null, say: async (_l: string, m: string) => void said.push(m), lines: [] };
    const uploads = { storeOutput: async () => 'up' };
    const none = { ports: {}, tables: new Map(), csv: new Map() };
    expect(await writeSinks({ files, uploads }, run, pipeline, none)).toEqual([]);
    expect(said).toEqual([
      'Data sink out: the component gave no output out.',
      'Data sink store: the component gave no output store.',
    ]);
    const csv = csvUploads(files);
    const bad = { ports: {}, tables: new Map(), csv: new Map([['out', { upload: csv.of('out'), last: Buffer.from('=1+1\n') }]]) };
    await expect(writeSinks({ files, uploads }, run, pipeline, bad)).rejects.toThrow(
      'Data sink out: the CSV the component wrote cannot be stored.',
    );
    expect(files.aborted()).toBe(1);
  });

  it('lets the sandbox write only the ports whose every sink is a CSV file without a target', () => {
    expect(csvOnlyPorts(sinks)).toEqual(['out']);
    expect(csvOnlyPorts([...sinks, { name: 'out', format: 'XLSX', target: null }])).toEqual([]);
  });
});

describe('how a failed run ends', () => {
  const first = { id: 'i1', attempts: 1, parent_import_id: null };

  it('is aborted when stopped, failed otherwise, with the message meant for people', () => {
    expect(failureEnd(first, undefined, 'stop', new Error('x'))).toMatchObject({
      state: 'aborted',
      lines: [{ level: 'warn', message: IMPORT_MESSAGES.aborted }],
    });
    const failed = failureEnd(first, undefined, null, new RunStepError('No enabled valid upload for data source prices.'));
    expect(failed.state).toBe('failed');
    expect(failed.lines.map((l) => l.message)).toEqual(['No enabled valid upload for data source prices.', 'Import failed.']);
    expect(failureMessage(new Error('secret detail'))).toBe(IMPORT_MESSAGES.unexpected);
    const shutdown = failureEnd(first, undefined, 'shutdown', new Error('x'));
    expect(shutdown.lines.map((l) => l.message)).toEqual(['The server stopped during the import.', 'Import failed.']);
  });

  it('starts again when its job restarts on error, up to three attempts, never for a country of a sequence', () => {
    const job = { restart_on_error: true };
    const again = failureEnd(first, job, null, new RunStepError('boom'));
    expect(again.state).toBe('pending');
    expect(again.lines.at(-1)?.message).toBe('The import starts again (attempt 2 of 3).');
    expect(failureEnd({ ...first, attempts: 3 }, job, null, new Error('x')).state).toBe('failed');
    expect(failureEnd({ ...first, parent_import_id: 'm' }, job, null, new Error('x')).state).toBe('failed');
  });

  it("keeps the component's log lines written before the failure", () => {
    const error = Object.assign(new Error('x'), { logs: [{ level: 'info', message: 'half way' }] });
    expect(failureEnd(first, undefined, null, error).lines.map((l) => l.message)).toEqual([
      'half way',
      IMPORT_MESSAGES.unexpected,
      'Import failed.',
    ]);
  });
});
