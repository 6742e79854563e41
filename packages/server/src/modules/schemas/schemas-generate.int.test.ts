import fs from 'node:fs';
import path from 'node:path';
import { ROLES, type Role } from '@gdb/shared/auth/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../test/elsewhere.ts';
import { listenLocal } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { fieldPart, fileHead, multipartBody, openUpload, partEnd } from '../../../test/upload-client.ts';
import { deflateOfRepeat, zipArchive } from '../../../test/zip-archive.ts';

// POST /schemas/generate: data models inferred from example files written by other tools (the
// upload corpus) and by hand, hostile files refused, on the database the run is given.

const CORPUS = path.join(import.meta.dirname, '../../../test/corpus');
const corpus = (file: string) => fs.readFileSync(path.join(CORPUS, file));

let t: TestApp;
const tokens = new Map<Role, string>();
beforeAll(async () => {
  t = await createTestApp({ uploadInFlightBytes: 1024 * 1024 });
  for (const role of ROLES) tokens.set(role, (await t.signedIn([role])).token);
});
afterAll(async () => {
  await t.close();
});

/** Sends example files (name → bytes) with the omitStartingArray field. */
async function generate(files: Record<string, Uint8Array | string>, omitStartingArray = true, role: Role = 'manager') {
  const parts = [fieldPart('omitStartingArray', String(omitStartingArray))];
  for (const [name, content] of Object.entries(files)) {
    parts.push(fileHead('file', name), Buffer.from(content), partEnd);
  }
  const { body, headers } = multipartBody(parts);
  return t.call('POST', '/schemas/generate', { token: tokens.get(role), body, headers });
}

async function generated(file: string, content: Uint8Array | string, omitStartingArray = true) {
  const res = await generate({ [file]: content }, omitStartingArray);
  expect(res.status, res.body.message).toBe(200);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
}

const TYPED_CSV = [
  'id,price,active,name,born,seen,mail,note',
  '1,2.5,true,Ann,2020-01-02,2020-01-02T10:00:00Z,ann@example.com,x',
  '2,3,FALSE,Bob,2021-12-31,2021-12-31T23:59:59+01:00,bob@example.org,',
  '',
].join('\n');

describe('POST /schemas/generate', () => {
  it('admits managers and super-admins, refuses users and admins', async () => {
    for (const role of ROLES) {
      const res = await generate({ 'a.csv': 'a\n1\n' }, true, role);
      expect(res.status, role).toBe(role === 'manager' || role === 'super-admin' ? 200 : 403);
    }
  });

  it('infers integer, number, boolean, string, date, date-time, email and what no row leaves empty (CSV)', async () => {
    expect(await generated('typed.csv', TYPED_CSV)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'integer' },
        price: { type: 'number' },
        active: { type: 'boolean' },
        name: { type: 'string' },
        born: { type: 'string', format: 'date' },
        seen: { type: 'string', format: 'date-time' },
        mail: { type: 'string', format: 'email' },
        note: { type: 'string' },
      },
      required: ['id', 'price', 'active', 'name', 'born', 'seen', 'mail'],
    });
  });

  it('answers an array of rows unless the starting array is omitted, one data model per file', async () => {
    const res = await generate({ 'a.csv': 'a\n1\n', 'b.json': '[{"b": "x"}]' }, false);
    expect(res.body.data).toEqual([
      { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } },
      { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] } },
    ]);
  });

  it('reads spreadsheets saved by Excel and LibreOffice (XLSX, XLS)', async () => {
    const numbers = await generated('numbers.xlsx', corpus('excel/lo-numbers.xlsx'));
    expect(numbers.properties).toMatchObject({ code: { type: 'string' }, zip: { type: 'integer' }, price: { type: 'number' } });
    // A sheet's integer beyond 2^53 is kept as its digits, as the upload check keeps it.
    expect(numbers.properties.big).toEqual({ type: 'string' });
    expect((await generated('booleans.xls', corpus('excel/booleans.xls'))).properties.active).toEqual({ type: 'boolean' });
    const dates = await generated('dates.xlsx', corpus('excel/dates.xlsx'));
    expect(dates.properties.day).toEqual({ type: 'string', format: 'date' });
    // A sheet's date-times and times carry no zone: the formats take them as the author wrote them.
    expect(dates.properties.at).toEqual({ type: 'string', format: 'date-time' });
    expect(dates.properties.time).toEqual({ type: 'string', format: 'time' });
    // A duration past 24 hours (36:00:00) is no time of day.
    expect(dates.properties.duration).toEqual({ type: 'string' });
    expect(dates.required).toContain('day');
  });

  it('reads CSV, XML and JSON files as other tools write them', async () => {
    const utf16 = await generated('text.csv', corpus('text/excel-unicode-text-utf16le-tab.csv'));
    expect(Object.keys(utf16.properties).length).toBeGreaterThan(1);
    const xml = await generated('dealers.xml', corpus('text/entities-attributes-namespaces.xml'));
    expect(xml.properties).toMatchObject({ id: { type: 'integer' }, code: { type: 'string' } });
    expect(xml.required).toEqual(['id', 'code', 'name', 'city']);
    const json = await generated('data.json', corpus('text/data-property.json'));
    expect(json).toEqual({
      type: 'object',
      properties: { code: { type: 'string' }, qty: { type: 'number' }, ok: { type: 'boolean' }, note: { type: 'null' } },
      required: ['code', 'qty'],
    });
  });

  it('infers nested objects and arrays (JSON, XML)', async () => {
    const rows = [
      { id: 1, dealer: { code: 'A', since: '2020-01-02' }, tags: ['x'], lines: [{ n: 1 }, { n: 2, ok: true }] },
      { id: 2, dealer: { code: 'B' }, tags: [], lines: [{ n: 3.5 }] },
    ];
    expect(await generated('nested.json', JSON.stringify(rows))).toEqual({
      type: 'object',
      properties: {
        id: { type: 'integer' },
        dealer: {
          type: 'object',
          properties: { code: { type: 'string' }, since: { type: 'string', format: 'date' } },
          required: ['code'],
        },
        tags: { type: 'array', items: { type: 'string' } },
        lines: {
          type: 'array',
          items: { type: 'object', properties: { n: { type: 'number' }, ok: { type: 'boolean' } }, required: ['n'] },
        },
      },
      required: ['id', 'dealer', 'tags', 'lines'],
    });
    const xml =
      '<rows><row><id>1</id><addr><city>Lyon</city></addr></row><row><id>2</id><addr><city>Nice</city></addr></row></rows>';
    expect((await generated('nested.xml', xml)).properties).toEqual({
      id: { type: 'integer' },
      addr: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
  });
});

describe('POST /schemas/generate: hostile files', () => {
  async function refused(files: Record<string, Uint8Array | string>, status = 422) {
    const res = await generate(files);
    expect(res.status, res.body.message).toBe(status);
    expect(res.body.message).toMatch(/^Generate schema from file error: /);
    return res.body.message as string;
  }

  it('refuses a zip bomb posing as XLSX', async () => {
    const start = '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>';
    const bomb = zipArchive([
      {
        name: 'xl/workbook.xml',
        content: '<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        content:
          '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        content: '',
        compressed: deflateOfRepeat(start, ' ', 1024 ** 3, '</sheetData></worksheet>'),
      },
    ]);
    expect(await refused({ 'bomb.xlsx': bomb })).toMatch(/compression|inflate|too large/i);
  });

  it('refuses XML that declares entities (no expansion)', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><rows><row><v>&b;</v></row></rows>';
    expect(await refused({ 'laughs.xml': laughs })).toBe(
      'Generate schema from file error: XML entity declarations are not accepted.',
    );
    await refused({ 'entity.xml': corpus('text/entity-declaration.xml') });
  });

  it('refuses JSON and XML nested 100,000 deep', async () => {
    const deep = `[{"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}]`;
    expect(await refused({ 'deep.json': deep })).toBe(
      'Generate schema from file error: The JSON is nested deeper than 64 levels.',
    );
    await refused({ 'deep.xml': `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}` });
  });

  it('refuses a file over 20 MiB, an empty or binary file, and a request without a file', async () => {
    expect(await refused({ 'big.csv': Buffer.alloc(20 * 1024 * 1024 + 1, 'a') }, 413)).toBe(
      'Generate schema from file error: files must be less than 20 MiB',
    );
    await refused({ 'empty.csv': '' });
    await refused({ 'bin.csv': new Uint8Array([0, 1, 2, 0, 0, 3]) });
    await refused({});
  });

  it('shares the in-flight budget of uploads: refused with 503 while uploads fill it', async () => {
    const url = await listenLocal(t.app);
    const upload = openUpload(url, tokens.get('manager') ?? '', 4 * 1024 * 1024);
    await upload.send(
      Buffer.concat([fieldPart('pipelineId', 'x'), fileHead('prices', 'p.csv'), Buffer.alloc(1024 * 1024 + 1, 'a')]),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const res = await generate({ 'a.csv': 'a\n1\n' });
    upload.abort();
    expect(res.status, res.body.message).toBe(503);
    // The aborted upload gives its share back once the server has seen its connection close.
    let after = res;
    await until(async () => {
      after = await generate({ 'a.csv': 'a\n1\n' });
      return after.status !== 503;
    });
    expect(after.status, after.body.message).toBe(200);
  });
});
