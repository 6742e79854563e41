import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rowsOfStored } from '../../../platform/files/row-tables.ts';
import { type PooledOutcome, parseFile, pooled } from './parse-file.ts';
import { createParsePool } from './parse-pool.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('parse pool', () => {
  it('parses in a worker thread and answers the outcome', async () => {
    const pool = createParsePool({ concurrency: 2 });
    const out = await pool.parse({ bytes: enc('a,b\n1,2\n3,4\n'), group: 'csv', dataModel: null });
    expect(out.status).toBe('valid');
    expect(out.rowCount).toBe(2);
    expect(rowsOfStored(new TextDecoder().decode(out.rowsBytes ?? new Uint8Array()))).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4' },
    ]);
  });

  it.runIf(process.platform === 'linux')('parses at a lower priority than the thread answering requests', async () => {
    const niceOf = (task: string) =>
      Number(fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]);
    const pool = createParsePool({ concurrency: 1 });
    await pool.parse({ bytes: enc('a\n1\n'), group: 'csv', dataModel: null });
    const nices = fs.readdirSync('/proc/self/task').map(niceOf);
    // Below normal is 10; a runner started at a lower priority already keeps its threads there.
    expect(Math.max(...nices)).toBe(Math.max(10, niceOf(String(process.pid))));
  });

  it('leaves the caller its bytes, gives the next files to the workers that answered, and boots spares once idle', async () => {
    const pool = createParsePool({ concurrency: 1, csvSlices: 2, spareDelayMs: 100 });
    // A buffer of its own (not a slice of Node's shared pool), as a file read answers.
    const bytes = Buffer.alloc(8, 'a,b\n1,2\n');
    for (let i = 0; i < 3; i++) {
      const out = await pool.parse({ bytes, group: 'csv', dataModel: null });
      expect(out.status).toBe('valid');
      expect(bytes.toString()).toBe('a,b\n1,2\n');
      // Right after a file, nothing boots; once the pool is idle, it has two booted workers again:
      // the one that answered and, after the first file, one more.
      const after = pool.counts().workers;
      await new Promise((r) => setTimeout(r, 50));
      expect(pool.counts().workers).toBe(after);
      await new Promise((r) => setTimeout(r, 200));
      expect(pool.counts().workers).toBe(after + (i === 0 ? 1 : 0));
    }
    expect(pool.counts()).toMatchObject({ files: 3, sliced: 0, workers: 2, compiles: 0 });
  });

  it('hands a file it read itself to the worker without a copy, but never memory other Buffers share', async () => {
    const pool = createParsePool({ concurrency: 1, csvSlices: 1 });
    const text = `a,b\n${'1,2\n'.repeat(4096)}`;
    const read = Buffer.from(text);
    const out = await pool.parse({ bytes: async () => read, group: 'csv', dataModel: null });
    expect(out.rowCount).toBe(4096);
    // Handed over: its memory is the worker's now.
    expect(read.byteLength).toBe(0);
    // Given as they are, the bytes stay the caller's.
    const given = Buffer.from(text);
    expect((await pool.parse({ bytes: given, group: 'csv', dataModel: null })).rowCount).toBe(4096);
    expect(given.toString()).toBe(text);
    // A small Buffer is cut from a slab its neighbours share: copied, so they keep their bytes.
    const small = Buffer.from('a\n1\n');
    const neighbour = Buffer.from('still here');
    expect(small.buffer).toBe(neighbour.buffer);
    expect((await pool.parse({ bytes: async () => small, group: 'csv', dataModel: null })).rowCount).toBe(1);
    expect(neighbour.toString()).toBe('still here');
  });

  it('reads a file given as a way to read it only once a worker is free for it', async () => {
    const pool = createParsePool({ concurrency: 1, csvSlices: 1 });
    const reads: string[] = [];
    let letFirstRead!: () => void;
    const firstReadable = new Promise<void>((resolve) => {
      letFirstRead = resolve;
    });
    const first = pool.parse({
      bytes: async () => {
        reads.push('first');
        await firstReadable;
        return enc('a\n1\n');
      },
      group: 'csv',
      dataModel: null,
    });
    const second = pool.parse({
      bytes: async () => {
        reads.push('second');
        return enc('a\n2\n3\n');
      },
      group: 'csv',
      dataModel: null,
    });
    await new Promise((r) => setTimeout(r, 100));
    // The second file waits for the worker without being read.
    expect(reads).toEqual(['first']);
    letFirstRead();
    expect((await first).rowCount).toBe(1);
    expect((await second).rowCount).toBe(2);
    expect(reads).toEqual(['first', 'second']);
  });

  it('parses a small file while the files of its limit are being parsed, a large one after them', async () => {
    const pool = createParsePool({ concurrency: 1, csvSlices: 1, spareDelayMs: 60_000 });
    let letFirstRead: () => void = () => undefined;
    const firstReadable = new Promise<void>((resolve) => {
      letFirstRead = resolve;
    });
    const held = pool.parse({
      bytes: async () => {
        await firstReadable;
        return enc('a\n1\n');
      },
      group: 'csv',
      dataModel: null,
    });
    const order: string[] = [];
    const large = pool.parse({ bytes: enc(`a\n${'1\n'.repeat(200_000)}`), group: 'csv', dataModel: null }).then((o) => {
      order.push('large');
      return o;
    });
    const small = await pool.parse({ bytes: enc('a\n2\n3\n'), group: 'csv', dataModel: null });
    order.push('small');
    expect(small.rowCount).toBe(2);
    letFirstRead();
    expect((await held).rowCount).toBe(1);
    expect((await large).rowCount).toBe(200_000);
    expect(order).toEqual(['small', 'large']);
  });

  it('ends a worker after it has parsed its share of files', async () => {
    const pool = createParsePool({ concurrency: 1, csvSlices: 1, spareDelayMs: 60_000, workerShare: { files: 50, bytes: 1e9 } });
    for (let i = 0; i < 51; i++) {
      expect((await pool.parse({ bytes: enc('a\n1\n'), group: 'csv', dataModel: null })).status).toBe('valid');
    }
    expect(pool.counts()).toMatchObject({ files: 51, sliced: 0, workers: 2, compiles: 0 });
  });

  it('boots the successor of a worker past its share while it goes on serving: no file waits for a boot', async () => {
    const pool = createParsePool({ concurrency: 1, csvSlices: 1, spareDelayMs: 50, workerShare: { files: 5, bytes: 1e9 } });
    const file = () => pool.parse({ bytes: enc('a\n1\n'), group: 'csv', dataModel: null });
    expect((await file()).status).toBe('valid');
    // Idle, the pool boots its spare; from then on every file finds a booted worker.
    await new Promise((r) => setTimeout(r, 500));
    const waited = pool.counts().bootWaits;
    for (let i = 0; i < 40; i++) {
      expect((await file()).status).toBe('valid');
      // A file after the other: a worker past its share serves until its successor has booted.
      await new Promise((r) => setTimeout(r, 20));
    }
    const counts = pool.counts();
    expect(counts.workers).toBeGreaterThanOrEqual(5);
    expect(counts.bootWaits).toBe(waited);
  });

  it('ends a worker after it has read its share of bytes, and not before for small files', async () => {
    const pool = createParsePool({
      concurrency: 1,
      csvSlices: 1,
      spareDelayMs: 60_000,
      workerShare: { files: 1000, bytes: 1000 },
    });
    const small = enc('a\n1\n');
    for (let i = 0; i < 100; i++)
      expect((await pool.parse({ bytes: small, group: 'csv', dataModel: null })).status).toBe('valid');
    expect(pool.counts().workers).toBe(1);
    const row = enc(`a\n${'1'.repeat(998)}\n`);
    expect((await pool.parse({ bytes: row, group: 'csv', dataModel: null })).status).toBe('valid');
    expect((await pool.parse({ bytes: small, group: 'csv', dataModel: null })).status).toBe('valid');
    expect(pool.counts()).toMatchObject({ files: 102, sliced: 0, workers: 2, compiles: 0 });
  });

  it('ends a worker that read a large file once it answers, and gives small files to the same worker', async () => {
    const pool = createParsePool({ concurrency: 1, csvSlices: 1, spareDelayMs: 60_000 });
    const small = () => pool.parse({ bytes: enc('a\n1\n'), group: 'csv', dataModel: null });
    expect((await small()).status).toBe('valid');
    expect((await small()).status).toBe('valid');
    expect(pool.counts().workers).toBe(1);
    const large = enc(`a\n${'1234567\n'.repeat(300_000)}`);
    expect((await pool.parse({ bytes: large, group: 'csv', dataModel: null })).rowCount).toBe(300_000);
    expect(pool.counts().workers).toBe(1);
    // The worker that read 2.3 MB is gone: the next file boots one with a new, small heap.
    expect((await small()).status).toBe('valid');
    expect(pool.counts().workers).toBe(2);
  });

  it("keeps a data model's compiled checks in the worker by its key: the same version compiles once, a saved draft anew", async () => {
    const pool = createParsePool({ concurrency: 1, csvSlices: 1, spareDelayMs: 60_000 });
    const draft = { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{2}$' }, qty: { type: 'integer' } } };
    const upload = (text: string, dataModel: Record<string, unknown>, dataModelKey: string) =>
      pool.parse({ bytes: enc(text), group: 'csv', dataModel, dataModelKey });
    // Checked by column, then (a row fails) row by row: both checks compiled.
    const first = await upload('code,qty\nAB,1\nabc,2\n', draft, 'model-1 1');
    expect(first.problems).toEqual([
      { row: 3, message: 'Row 3, code: "abc" does not have the expected form (pattern ^[A-Z]{2}$)' },
    ]);
    const compiled = pool.counts().compiles;
    expect(compiled).toBe(2);
    for (const text of ['code,qty\nCD,3\n', 'code,qty\nxy,4\n']) {
      await upload(text, draft, 'model-1 1');
    }
    expect(pool.counts().compiles).toBe(compiled);
    expect(pool.counts().workers).toBe(1);
    // The draft saved: its key changes with its save counter, and the new content is the one checked.
    const saved = { ...draft, properties: { ...draft.properties, code: { type: 'string', pattern: '^[a-z]{3}$' } } };
    expect((await upload('code,qty\nabc,2\n', saved, 'model-1 2')).status).toBe('valid');
    expect(pool.counts().compiles).toBe(compiled + 1);
    // Without a key, every file compiles its checks.
    await pool.parse({ bytes: enc('code,qty\nAB,1\n'), group: 'csv', dataModel: draft });
    await pool.parse({ bytes: enc('code,qty\nAB,1\n'), group: 'csv', dataModel: draft });
    expect(pool.counts().compiles).toBe(compiled + 3);
  });

  it('answers invalid when a parse exceeds its memory cap, and keeps working', async () => {
    const pool = createParsePool({ concurrency: 1, maxMemoryMb: 32 });
    // Values all different (a column's repeated texts are kept once, which a cap this size would hold).
    const lines = Array.from({ length: 400_000 }, (_, i) => `a${i},b${i}bbbbbbbb,c${i}cccccccc,d${i}dddddddd,e${i}eeeeeeee`);
    const wide = `a,b,c,d,e\n${lines.join('\n')}\n`;
    const out = await pool.parse({ bytes: enc(wide), group: 'csv', dataModel: null });
    expect(out.status).toBe('invalid');
    expect(out.summary).toBe('The file needs too much memory to read.');
    // A worker that failed is not given the next file.
    const failed = pool.counts().workers;
    const next = await pool.parse({ bytes: enc('a\n1\n'), group: 'csv', dataModel: null });
    expect(next.status).toBe('valid');
    expect(pool.counts().workers).toBe(failed + 1);
  });

  it('reads a large file whose columns repeat a few texts within a cap its values each kept would pass', async () => {
    // 20 MB: its 2,000,000 values kept as strings of their own need more than 96 MiB of heap; each
    // column's repeated text kept once, under 64.
    const pool = createParsePool({ concurrency: 1, maxMemoryMb: 80 });
    const repeated = `a,b,c,d,e\n${'aaaaaaaaaa,bbbbbbbbbb,cccccccccc,dddddddddd,eeeeeeeeee\n'.repeat(400_000)}`;
    const out = await pool.parse({ bytes: enc(repeated), group: 'csv', dataModel: null });
    expect(out.status).toBe('valid');
    expect(out.rowCount).toBe(400_000);
  });

  it('answers invalid when a parse takes too long', async () => {
    const pool = createParsePool({ concurrency: 1, timeoutMs: 50 });
    const big = `a,b\n${'1,2\n'.repeat(2_000_000)}`;
    const out = await pool.parse({ bytes: enc(big), group: 'csv', dataModel: null });
    expect(out.status).toBe('invalid');
    expect(out.summary).toBe('The file took too long to read and check: it passed the limit of UPLOAD_CHECK_TIMEOUT_S (0.05 s).');
  });

  it('frees the place of a check past its limit at once: the next file starts as it ends', async () => {
    // A limit far below what the big file's read needs (its first million rows, past which it is
    // refused, are 22 MB): on a fast machine too, the limit ends it, not the row count.
    const pool = createParsePool({ concurrency: 1, timeoutMs: 20 });
    await pool.parse({ bytes: enc('a,b\n1,2\n'), group: 'csv', dataModel: null });
    const rows = '1234567890,1234567890\n'.repeat(1_200_000);
    const big = pool.parse({ bytes: enc(`a,b\n${rows}`), group: 'csv', dataModel: null });
    const small = pool.parse({ bytes: enc('a,b\n1,2\n'), group: 'csv', dataModel: null });
    const bigEnded = big.then((out) => ({ out, at: performance.now() }));
    const smallEnded = small.then((out) => ({ out, at: performance.now() }));
    const [first, next] = await Promise.all([bigEnded, smallEnded]);
    expect(first.out.summary).toMatch(/UPLOAD_CHECK_TIMEOUT_S \(0\.02 s\)/);
    // Its own check (a worker booted, one row) had the whole limit: it ended within it, whatever it answered.
    expect(next.at - first.at).toBeLessThan(1500);
    expect(next.out.summary).toBeTruthy();
  });

  it("checks ^(a+)+$ on a 41-character row at once, and the next user's file is not held", async () => {
    // One place, as on a two-core server: a backtracking engine held it 119 s with this row.
    const pool = createParsePool({ concurrency: 1 });
    const dataModel = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } };
    for (const group of ['csv', 'json'] as const) {
      const started = performance.now();
      const hostile = pool.parse({
        bytes: enc(group === 'csv' ? `code\n${'a'.repeat(40)}!\n` : JSON.stringify([{ code: `${'a'.repeat(40)}!` }])),
        group,
        dataModel,
      });
      const other = pool.parse({ bytes: enc('code\naaaa\n'), group: 'csv', dataModel });
      const checked = await hostile;
      expect(checked.status).toBe('invalid');
      expect(checked.problems?.[0]?.message).toMatch(
        /^Row \d, code: "a+…" does not have the expected form \(pattern \^\(a\+\)\+\$\)$/,
      );
      expect((await other).status).toBe('valid');
      // A worker's start and compile are in it: the bound tells a linear check (well under a second
      // on an idle machine) from a backtracking one (minutes), not how loaded the machine is.
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });

  describe('a large CSV file in slices', () => {
    const model = {
      type: 'object',
      required: ['code', 'qty'],
      properties: { code: { type: 'string', pattern: '^[A-Z]{2}$' }, qty: { type: 'integer' }, note: { type: 'string' } },
    };
    // Every file counts as large here, and is cut into three slices, one worker each, the server idle.
    const pool = createParsePool({ concurrency: 1, csvSlices: 3, sliceFromBytes: 0 });
    const whole = (text: string) => pooled(parseFile({ bytes: enc(text), group: 'csv', dataModel: model }));
    const rowsOf = (out: PooledOutcome) => rowsOfStored(new TextDecoder().decode(out.rowsBytes ?? enc('[]')));
    const records = (n: number, row: (i: number) => string) => Array.from({ length: n }, (_, i) => row(i)).join('');

    it('answers what parsing the file whole answers, the rows typed and in order', async () => {
      const text = `code;qty;note\n${records(300, (i) => `AB;${i};"n ${i}; ""q""\nnext"\n`)}`;
      const before = pool.counts().sliced;
      const out = await pool.parse({ bytes: enc(text), group: 'csv', dataModel: model });
      expect(out.status).toBe('valid');
      expect(out.rowCount).toBe(300);
      expect(rowsOf(out)).toEqual(rowsOf(whole(text)));
      expect(rowsOf(out)[299]).toEqual({ code: 'AB', qty: 299, note: 'n 299; "q"\nnext' });
      expect(out.summary).toBe('300 rows read, all valid.');
      expect(pool.counts().sliced).toBe(before + 1);
    });

    it('numbers the problems of later slices from the start of the file, at most maxProblems of them', async () => {
      const text = `code,qty\n${records(600, (i) => (i % 50 === 49 ? `x${i},${i}\n` : `AB,${i}\n`))}`;
      const out = await pool.parse({ bytes: enc(text), group: 'csv', dataModel: model, limits: { maxProblems: 5 } });
      const expected = pooled(parseFile({ bytes: enc(text), group: 'csv', dataModel: model, limits: { maxProblems: 5 } }));
      expect(out).toEqual(expected);
      const all = await pool.parse({ bytes: enc(text), group: 'csv', dataModel: model });
      // Rows are numbered by their line in the file, the header being line 1.
      expect(all.problems.map((p) => p.row)).toEqual(Array.from({ length: 12 }, (_, k) => 50 * k + 51));
      expect(all.problems.at(-1)?.message).toBe('Row 601, code: "x599" does not have the expected form (pattern ^[A-Z]{2}$)');
      expect(all.summary).toBe('600 rows read, 12 invalid (12 problems).');
    });

    it('numbers rows by their lines in the file across slices: sep= line, blank lines, mixed line breaks, line breaks in quotes', async () => {
      const text = `sep=;\r\ncode;qty;note\r\n${records(300, (i) => (i % 7 === 0 ? `\r\n${i % 5 === 0 ? 'x' : 'AB'};${i};"a\nb"\r` : `AB;${i};n${i === 200 ? ';extra' : ''}\n`))}`;
      const before = pool.counts().sliced;
      const out = await pool.parse({ bytes: enc(text), group: 'csv', dataModel: model });
      expect(pool.counts().sliced).toBe(before + 1);
      expect(out).toEqual(whole(text));
      expect(out.problems.length).toBeGreaterThan(2);
      expect(out.problems.some((p) => p.message.endsWith(': 4 values where the header has 3 fields.'))).toBe(true);
      expect(out.notes[0]).toEqual({ level: 'info', message: 'Read as UTF-8.' });
    });

    it('reads a file that is not UTF-8 whole, in its encoding, with its note', async () => {
      const text = `code,qty,note\n${records(300, (i) => `AB,${i},caf\u00e9\n`)}`;
      const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
      const before = pool.counts().sliced;
      const out = await pool.parse({ bytes, group: 'csv', dataModel: model });
      expect(pool.counts().sliced).toBe(before);
      expect(out.status).toBe('valid');
      expect(rowsOf(out)[299]).toEqual({ code: 'AB', qty: 299, note: 'caf\u00e9' });
      expect(out.notes[0]).toEqual({ level: 'warn', message: 'Read as Windows-1252 (the file is not valid UTF-8).' });
    });

    it('parses the file whole when the slices cannot stand for it', async () => {
      const before = pool.counts();
      // A quote a slice sees opened and never closed; more rows than allowed; an over-long cell.
      const cases: Array<[string, { maxRows?: number; maxCellChars?: number }]> = [
        [`code,qty,note\n${records(90, (i) => `AB,${i},x\n`)}AB,1,"unclosed\n${records(90, (i) => `AB,${i},y\n`)}`, {}],
        [`code,qty\n${records(100, (i) => `AB,${i}\n`)}`, { maxRows: 99 }],
        [`code,qty,note\n${records(100, (i) => `AB,${i},${i === 80 ? 'long'.repeat(10) : 'x'}\n`)}`, { maxCellChars: 20 }],
      ];
      for (const [text, limits] of cases) {
        const out = await pool.parse({ bytes: enc(text), group: 'csv', dataModel: model, limits });
        expect(out).toEqual(pooled(parseFile({ bytes: enc(text), group: 'csv', dataModel: model, limits })));
      }
      const over = await pool.parse({
        bytes: enc(`code,qty\n${records(100, (i) => `AB,${i}\n`)}`),
        group: 'csv',
        dataModel: model,
        limits: { maxRows: 99 },
      });
      expect(over.summary).toBe('The file has more than 99 rows.');
      expect(pool.counts()).toMatchObject({ files: before.files + 4, sliced: before.sliced });
    });

    it('leaves files that are not CSV text to the whole-file parse', async () => {
      const out = await pool.parse({ bytes: enc('[{"code":"AB","qty":1}]'), group: 'csv', dataModel: model });
      expect(out.status).toBe('invalid');
      expect(out.summary).toBe("The file content does not match the data source's type (.csv, .txt expected).");
    });
  });
});
