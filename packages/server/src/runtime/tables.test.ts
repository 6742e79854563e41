import { afterAll, describe, expect, test } from 'vitest';
import { generatedCells } from '../../test/generated-cells.ts';
import { component, MemorySource, memoryRuntime } from '../../test/test-runtime.ts';
import { csvRecords, writeSinkFile } from '../modules/imports/sink-files.ts';
import { asColumnTable, rowsOfTable, storedTableJson, tableJson } from '../platform/files/row-tables.ts';

// Runs asked with `tables` (imports): the input's rows arrive as lists of tables and leave as
// column tables where they can; the component sees, and the server gets back, the same rows.

const source = new MemorySource();
const rt = memoryRuntime(source);
afterAll(() => rt.close());

function instruction(name: string, jsCode: string, ports = ['rows']) {
  const c = component({ name, kind: 'instruction', inputs: ports, outputs: ports, jsCode });
  source.add(c);
  return c;
}

async function runTables(componentId: string, inputJson: string) {
  const outcome = await rt.runComponent({ componentId, inputJson, tables: true });
  const output = JSON.parse(outcome.outputJson) as Record<string, unknown>;
  return { output, tables: outcome.outputTables, logs: outcome.logs.map((l) => l.message) };
}

const rows = [
  { code: 'AB', qty: 1, ok: true, note: null },
  { code: 'CD', qty: 2.5, ok: false, note: 'x "y"\n' },
];

describe('rows as tables', () => {
  test('a list of row arrays and column tables reaches the component as one array of rows, in order', async () => {
    const echo = instruction(
      'Echo',
      'ctx.log(JSON.stringify(ctx.input.rows)); ctx.log(Array.isArray(ctx.input.rows)); ctx.output.rows = null;',
    );
    const input = `{"rows":[${tableJson(rows)},${JSON.stringify([{ z: 1 }])},${tableJson(rows)}]}`;
    const r = await runTables(echo._id, input);
    expect(JSON.parse(r.logs[0] ?? '')).toEqual([...rows, { z: 1 }, ...rows]);
    expect(r.logs[1]).toBe('true');
    // Without tables the same text is the value itself.
    const plain = await rt.runComponent({ componentId: echo._id, inputJson: input });
    expect(JSON.parse(plain.logs[0]?.message ?? '').length).toBe(3);
  });

  test('a stored table with coded columns reaches the component as the rows it was written from', async () => {
    const echo = instruction('EchoCoded', 'ctx.log(JSON.stringify(ctx.input.rows)); ctx.output.rows = null;');
    const many = Array.from({ length: 40 }, (_, i) => ({ code: i % 2 ? 'AB' : 'CD', n: i, note: `n${i}`, same: '' }));
    const table = storedTableJson(
      Object.keys(many[0] ?? {}),
      ['code', 'n', 'note', 'same'].map((f) => many.map((r) => r[f as keyof typeof r])),
    );
    // Texts that repeat are coded, the others left as they are.
    expect(JSON.parse(table).data.map((c: unknown) => Array.isArray(c))).toEqual([false, true, true, false]);
    const r = await runTables(echo._id, `{"rows":[${table},${tableJson(rows)}]}`);
    expect(JSON.parse(r.logs[0] ?? '')).toEqual([...many, ...rows]);
    // A coded column as long as the others, or the table is refused.
    await expect(
      rt.runComponent({
        componentId: echo._id,
        inputJson: '{"rows":[{"columns":["a","b"],"data":[{"values":["x"],"codes":[0]},[1,2]]}]}',
        tables: true,
      }),
    ).rejects.toThrow('Input rows: the rows cannot be read.');
  });

  test('a field named __proto__ stays an own field of each row, and a port named __proto__ a port', async () => {
    const look = instruction(
      'Look',
      'const r = ctx.input.__proto__[0]; ctx.log(Object.getPrototypeOf(r) === Object.prototype, Object.keys(r).join("|"), r.__proto__);',
      ['__proto__'],
    );
    const r = await runTables(look._id, '{"__proto__":[{"columns":["__proto__","a"],"data":[["x"],[1]]}]}');
    expect(r.logs).toEqual(['true __proto__|a x']);
  });

  test('an input that is not a list of tables fails the run with a clear message', async () => {
    const echo = instruction('Reads', 'ctx.output.rows = ctx.input.rows;');
    for (const input of ['{"rows":{"columns":["a"]}}', '{"rows":[{"columns":["a"],"data":[[1],[2]]}]}', '{"rows":[1]}']) {
      await expect(rt.runComponent({ componentId: echo._id, inputJson: input, tables: true })).rejects.toThrow(
        'Input rows: the rows cannot be read.',
      );
    }
  });

  test('output rows sharing plain fields come back as a column table that rebuilds the JSON text', async () => {
    const out = instruction(
      'Out',
      [
        'ctx.output.same = ctx.input.rows;',
        'ctx.output.mixed = [{ a: 1 }, { a: 2, b: 3 }];',
        'ctx.output.dated = [{ at: new Date(0) }];',
        'ctx.output.nested = [{ a: { b: 1 } }];',
        'ctx.output.custom = [{ a: 1, toJSON() { return "c"; } }];',
        'ctx.output.scalar = 5;',
        'ctx.output.empty = [];',
        'ctx.output.gone = [{ a: undefined }];',
      ].join('\n'),
      ['rows', 'same', 'mixed', 'dated', 'nested', 'custom', 'scalar', 'empty', 'gone'],
    );
    const r = await runTables(out._id, `{"rows":[${tableJson(rows)}]}`);
    expect(r.tables).toEqual(['same']);
    const table = asColumnTable(r.output.same);
    expect(table).not.toBeNull();
    expect(JSON.stringify(rowsOfTable(table ?? { columns: [], data: [] }))).toBe(JSON.stringify(rows));
    expect(r.output).toMatchObject({
      mixed: [{ a: 1 }, { a: 2, b: 3 }],
      dated: [{ at: '1970-01-01T00:00:00.000Z' }],
      nested: [{ a: { b: 1 } }],
      custom: ['c'],
      scalar: 5,
      empty: [],
      gone: [{}],
    });
    // Without tables, ports come back as JSON text only.
    const plain = await rt.runComponent({ componentId: out._id, inputJson: `{"rows":${JSON.stringify(rows)}}` });
    expect(plain.outputTables).toEqual([]);
    expect(JSON.parse(plain.outputJson).same).toEqual(rows);
  });

  test('a component that replaces Object.keys or JSON after the start cannot change how the tables are read or written', async () => {
    const tamper = instruction(
      'Tamper',
      [
        'Object.keys = () => ["evil"];',
        'JSON.stringify = () => "{}";',
        'Function = function () { throw new Error("no"); };',
        'ctx.output.rows = ctx.input.rows.map((r) => ({ ...r, code: r.code + "!" }));',
      ].join('\n'),
    );
    const r = await runTables(tamper._id, `{"rows":[${tableJson(rows)},${tableJson(rows)}]}`);
    expect(r.tables).toEqual(['rows']);
    const back = rowsOfTable(asColumnTable(r.output.rows) ?? { columns: [], data: [] });
    expect(back.map((row) => row.code)).toEqual(['AB!', 'CD!', 'AB!', 'CD!']);
  });

  test('ports asked as CSV come back as the bytes the server writes, outside the JSON; others as before', async () => {
    const rowsOut = [
      { code: '=HYPERLINK("x")', qty: -3, note: 'a, "b"\nc', plain: 'p' },
      { code: ' lead', qty: 1.5, note: null, plain: 'q' },
      // Characters of two, three and four bytes in UTF-8, and lone surrogates (written as U+FFFD).
      { code: '\u00e9t\u00e9', qty: 2, note: '\u6771\u4eac \ud83d\ude97', plain: 'x\ud800y\udc00' },
      ...Array.from({ length: 50 }, (_, i) => ({ code: `c${i}`, qty: i, note: i % 2 ? 'x' : 'y ', plain: `p${i}` })),
    ];
    const out = instruction(
      'Csv',
      `ctx.output.rows = ${JSON.stringify(rowsOut)}; ctx.output.mixed = [{ a: 1 }, { b: 2 }]; ctx.output.kept = ctx.output.rows;`,
      ['rows', 'mixed', 'kept'],
    );
    const outcome = await rt.runComponent({ componentId: out._id, inputJson: '{}', tables: true, csvPorts: ['rows', 'mixed'] });
    const expected = Buffer.from(writeSinkFile(rowsOut, { name: 'rows', format: 'CSV' }).bytes);
    expect(Object.keys(outcome.outputCsv)).toEqual(['rows']);
    expect(Buffer.from(outcome.outputCsv.rows ?? []).equals(expected)).toBe(true);
    expect(csvRecords(outcome.outputCsv.rows ?? new Uint8Array())).toBe(53);
    const output = JSON.parse(outcome.outputJson);
    expect(Object.keys(output).sort()).toEqual(['kept', 'mixed']);
    expect(output.mixed).toEqual([{ a: 1 }, { b: 2 }]);
    expect(outcome.outputTables).toEqual(['kept']);
  });

  test('generated cells written as CSV by the sandbox are escaped as the server escapes them, line breaks after a formula or not', async () => {
    const rowsOut = generatedCells(7, 2000).map((v, n) => ({ n, v }));
    const out = instruction('CsvCells', `ctx.output.rows = ${JSON.stringify(rowsOut)};`);
    const outcome = await rt.runComponent({ componentId: out._id, inputJson: '{}', tables: true, csvPorts: ['rows'] });
    const written = Buffer.from(outcome.outputCsv.rows ?? []);
    expect(written.toString()).toBe(Buffer.from(writeSinkFile(rowsOut, { name: 'rows', format: 'CSV' }).bytes).toString());
    expect(csvRecords(written)).toBe(rowsOut.length);
  });

  test('a CSV file whose sampled rows are unlike the others is written whole, whatever its buffer was first sized at', async () => {
    // The sandbox sizes the file's buffer from every few rows: here the rows between are ten times
    // longer (the buffer must grow), or ten times shorter (the buffer is mostly empty).
    for (const longBetween of [true, false]) {
      const code = `ctx.output.rows = Array.from({ length: 3000 }, (_, i) => {
        const sampled = i % Math.floor(3000 / 256) === 0;
        return { i, text: (sampled === ${longBetween} ? 'ab' : 'abcdefghij'.repeat(20)) + ', "q"' };
      });`;
      const outcome = await rt.runComponent({
        componentId: instruction('Uneven', code)._id,
        inputJson: '{}',
        tables: true,
        csvPorts: ['rows'],
      });
      const step = Math.floor(3000 / 256);
      const rowsOut = Array.from({ length: 3000 }, (_, i) => ({
        i,
        text: `${(i % step === 0) === longBetween ? 'ab' : 'abcdefghij'.repeat(20)}, "q"`,
      }));
      const expected = Buffer.from(writeSinkFile(rowsOut, { name: 'rows', format: 'CSV' }).bytes);
      expect(Buffer.from(outcome.outputCsv.rows ?? []).equals(expected), String(longBetween)).toBe(true);
    }
  });

  test('a CSV file handed over in pieces while it is written makes, with its last piece, the same bytes', async () => {
    const code = `ctx.output.rows = Array.from({ length: 3000 }, (_, i) => ({
      i, text: i % 7 ? 'plain ' + i : 'quoted, "q"\\n\u00e9t\u00e9 ' + i, price: i / 100 }));
      ctx.output.small = [{ a: 1 }];`;
    const out = instruction('Pieces', code, ['rows', 'small']);
    const whole = await rt.runComponent({ componentId: out._id, inputJson: '{}', tables: true, csvPorts: ['rows', 'small'] });
    const received: { port: string; bytes: Uint8Array }[] = [];
    const inPieces = await rt.runComponent({
      componentId: out._id,
      inputJson: '{}',
      tables: true,
      csvPorts: ['rows', 'small'],
      csvPieces: { bytes: 4096, onPiece: (port, bytes) => received.push({ port, bytes }) },
    });
    expect(received.length).toBeGreaterThan(10);
    expect(new Set(received.map((r) => r.port))).toEqual(new Set(['rows']));
    // Each piece is whole lines, the first one starting with the header.
    expect(received.every((r) => r.bytes[r.bytes.length - 1] === 10 && r.bytes.length >= 4096)).toBe(true);
    const joined = Buffer.concat([...received.map((r) => r.bytes), inPieces.outputCsv.rows ?? new Uint8Array()]);
    expect(joined.equals(Buffer.from(whole.outputCsv.rows ?? []))).toBe(true);
    expect(csvRecords(joined)).toBe(3000);
    // A file smaller than two pieces comes whole, as its last piece.
    expect(Buffer.from(inPieces.outputCsv.small ?? []).equals(Buffer.from(whole.outputCsv.small ?? []))).toBe(true);
  });

  test('pieces of CSV file count toward the output limit, and what is sent as a piece must be bytes', async () => {
    const many = 'ctx.output.rows = Array.from({ length: 2000 }, (_, i) => ({ i, text: "abcdefghij" }));';
    const small = memoryRuntime(source, { maxOutputChars: 10_000 });
    try {
      const pieces: number[] = [];
      await expect(
        small.runComponent({
          componentId: instruction('TooManyPieces', many)._id,
          inputJson: '{}',
          tables: true,
          csvPorts: ['rows'],
          csvPieces: { bytes: 2048, onPiece: (_port, bytes) => pieces.push(bytes.length) },
        }),
      ).rejects.toThrow('The output is larger than 10000 characters of JSON and bytes of CSV.');
      // What was passed on stayed within the limit.
      expect(pieces.reduce((n, b) => n + b, 0)).toBeLessThanOrEqual(10_000);
    } finally {
      await small.close();
    }
    // A component that changes how the pieces are cut hands over whatever it likes: not bytes ends the run.
    const forged = instruction(
      'ForgedPieces',
      `${many} Uint8Array.prototype.subarray = function () { return { length: 1, 0: 61 }; };`,
    );
    const passed: unknown[] = [];
    await expect(
      rt.runComponent({
        componentId: forged._id,
        inputJson: '{}',
        tables: true,
        csvPorts: ['rows'],
        csvPieces: { bytes: 2048, onPiece: (_port, bytes) => passed.push(bytes) },
      }),
    ).rejects.toThrow('The program answered something that is not a run result.');
    expect(passed).toEqual([]);
  });

  test('rows a column table could not hold, asked as CSV, come back as JSON for the server to write', async () => {
    // Each case as the component's code writes it: a nested value, an undefined one, an array row,
    // fields in another order, a row with toJSON, a row without fields.
    const odd = [
      '[{ a: 1 }, { a: { x: 1 } }]',
      '[{ a: 1 }, { a: undefined }]',
      '[{ a: 1 }, [1]]',
      '[{ a: 1, b: 2 }, { b: 2, a: 1 }]',
      "[{ a: 1 }, { a: 2, toJSON: () => 'x' }]",
      '[{}]',
    ];
    const out = instruction('Odd', `ctx.output.rows = [${odd.join(', ')}][ctx.rt_context.which];`);
    for (let which = 0; which < odd.length; which++) {
      const outcome = await rt.runComponent({
        componentId: out._id,
        inputJson: '{}',
        rtContextJson: JSON.stringify({ which }),
        tables: true,
        csvPorts: ['rows'],
      });
      expect(outcome.outputCsv, String(which)).toEqual({});
      expect(JSON.parse(outcome.outputJson).rows, String(which)).toBeDefined();
    }
  });

  test('numbers in a CSV file written by the sandbox are written as String writes them', async () => {
    // Amounts in hundredths and whole numbers are written digit by digit, the rest through String.
    const code = `
      const values = [0, -0, 1, -1, 7, 10, 100, 0.5, 0.05, 0.1, 0.01, 1.1, -2.25, 19.99, 100.1, 0.1 + 0.2, 1.005, 1 / 3,
        123456789012.34, 9999999999999.99, 1e13, 1e15 + 0.5, 2 ** 53, 1e21, 1e-7, 5e-324, NaN, Infinity, -Infinity];
      let seed = 7;
      const next = () => { seed = (seed * 16807) % 2147483647; return seed / 2147483647; };
      for (let i = 0; i < 3000; i++) {
        const scale = 10 ** Math.floor(next() * 14);
        values.push(Math.floor(next() * scale) / 100, -Math.round(next() * scale) / 100, Math.round(next() * scale), next() * scale);
        values.push(Math.round(next() * 99999 * 1.2) / 100, Math.round(next() * 1000) / 10, Math.round(next() * 1e6) / 1000);
      }
      ctx.output.rows = values.map((n) => ({ n, text: String(n) }));`;
    const out = instruction('Numbers', code);
    const outcome = await rt.runComponent({ componentId: out._id, inputJson: '{}', tables: true, csvPorts: ['rows'] });
    const text = Buffer.from(outcome.outputCsv.rows ?? []).toString();
    const lines = text.split('\n').slice(1, -1);
    expect(lines.length).toBeGreaterThan(20_000);
    for (const line of lines) {
      // Each number's cell and String's text of it (quoted when it starts with a minus sign).
      const [cell, textCell] = line.split(',');
      expect(textCell === cell || textCell === `"'${cell}"`, line).toBe(true);
    }
  });

  test('a component that replaces the entry point cannot hand the server anything but bytes, nor more than the limit', async () => {
    const rows = 'ctx.output.rows = [{ a: 1 }];';
    const notBytes = instruction('NotBytes', `${rows} globalThis.__gdbMain = { csvFile: () => ({ a: 1 }) };`);
    await expect(
      rt.runComponent({ componentId: notBytes._id, inputJson: '{}', tables: true, csvPorts: ['rows'] }),
    ).rejects.toThrow('The program answered something that is not a run result.');
    const small = memoryRuntime(source, { maxOutputChars: 2000 });
    try {
      const tooMany = instruction('TooMany', `${rows} globalThis.__gdbMain = { csvFile: () => new Uint8Array(5000) };`);
      await expect(
        small.runComponent({ componentId: tooMany._id, inputJson: '{}', tables: true, csvPorts: ['rows'] }),
      ).rejects.toThrow('The output is larger than 2000 characters of JSON and bytes of CSV.');
    } finally {
      await small.close();
    }
  });

  test('CSV text counts toward the output limit', async () => {
    const small = memoryRuntime(source, { maxOutputChars: 2000 });
    try {
      const big = instruction('Big', 'ctx.output.rows = Array.from({ length: 200 }, (_, i) => ({ n: i, text: "abcdefghij" }));');
      await expect(
        small.runComponent({ componentId: big._id, inputJson: '{}', tables: true, csvPorts: ['rows'] }),
      ).rejects.toThrow('The output is larger than 2000 characters of JSON and bytes of CSV.');
    } finally {
      await small.close();
    }
  });
});
