import { MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEALER_COLUMNS, DEALER_MODEL, DEALER_SAMPLES, excelJsDealers, sheetJsDealers } from '../../../test/dealer-workbooks.ts';
import { buildDataModel } from '../../../test/factories.ts';
import { csvSource, importKit, multipart } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// POST /uploads/file-head: a chosen file's header and first values as the check reads them, for
// the wizard's column mapping; nothing stored, and only for who may upload to the pipeline.

let t: TestApp;
let kit: Awaited<ReturnType<typeof importKit>>;
let stranger: string;
let pipelineId: string;

/** Asks for a file's head; `fields` are sent before the file. */
function askHead(
  token: string,
  content: Uint8Array | string,
  fields: Record<string, string> = { dataSubKind: 'dealers' },
  pid = pipelineId,
) {
  const { body, headers } = multipart(pid, [{ field: 'file', name: 'dealers.xlsx', content }], fields);
  return t.call('POST', '/uploads/file-head', { token, body, headers });
}

/** The uploads of the pipeline, counted as its 'Last uploaded list' shows them. */
async function uploadCount(token: string): Promise<number> {
  const res = await t.call('GET', `/uploads/last-all?pipelineId=${pipelineId}`, { token });
  return res.body.data.reduce((n: number, r: { data: unknown[] }) => n + r.data.length, 0);
}

beforeAll(async () => {
  t = await createTestApp();
  kit = await importKit(t);
  stranger = (await t.signedIn(['user'])).token;
  const modelId = await buildDataModel(t, 'dealer', DEALER_MODEL);
  pipelineId = await kit.pipeline({
    name: 'dealers FR',
    sources: [
      csvSource('dealers', { contentType: 'excel', dataModel: modelId }),
      csvSource('prices'),
      csvSource('stock', { contentType: 'json' }),
    ],
  });
});
afterAll(async () => {
  await t.close();
});

describe('the head of a chosen file', () => {
  let token: string;
  beforeAll(async () => {
    const signed = await t.signedIn(['user']);
    token = signed.token;
    await kit.assign(signed.user.id, pipelineId);
  });

  it('reads an ExcelJS workbook as the check does: the header under the title rows, no nameless column, dates as ISO', async () => {
    const before = await uploadCount(token);
    const res = await askHead(token, await excelJsDealers());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      columns: DEALER_COLUMNS,
      samples: DEALER_SAMPLES,
    });
    expect(await uploadCount(token)).toBe(before);
  });

  it.each(['xlsx', 'biff8'] as const)('reads the sheet naming a field of a SheetJS workbook (%s)', async (bookType) => {
    const res = await askHead(token, sheetJsDealers(bookType));
    expect(res.status).toBe(200);
    expect(res.body.data.columns).toEqual(DEALER_COLUMNS);
    expect(res.body.data.samples[4]).toEqual(['2026-03-01', '1999-12-31']);
  });

  it('reads the columns the check then reads: a mapping of the head makes the workbook valid', async () => {
    const head = await askHead(token, await excelJsDealers());
    const fields = ['dealerCode', 'name', 'city', 'email', 'opened', null];
    const columns = head.body.data.columns.map((column: string, i: number) => ({ column, field: fields[i] }));
    const saved = await t.call('POST', '/uploads/column-mappings', {
      token,
      body: { pipelineId, dataSubKind: 'dealers', columns },
    });
    expect(saved.status).toBe(200);
    const id = await kit.upload(token, pipelineId, 'dealers', await excelJsDealers(), 'dealers.xlsx');
    const status = await t.call('GET', `/uploads/status?ids=${id}`, { token });
    expect(status.body.data[0]).toMatchObject({ status: 'valid', rowCount: 4 });
  });

  it('reads a CSV file too', async () => {
    const res = await askHead(token, 'Code;Prix\nA1;12\n', { dataSubKind: 'prices' });
    expect(res.body.data).toEqual({ columns: ['Code', 'Prix'], samples: [['A1'], ['12']] });
  });
});

describe('a file head refused', () => {
  let token: string;
  beforeAll(async () => {
    const signed = await t.signedIn(['user']);
    token = signed.token;
    await kit.assign(signed.user.id, pipelineId);
  });

  it('to a user the pipeline is not assigned to, and for a pipeline that does not exist', async () => {
    const res = await askHead(stranger, await excelJsDealers());
    expect(res.status).toBe(403);
    const missing = await askHead(token, await excelJsDealers(), undefined, '00000000-0000-4000-8000-00000000dead');
    expect(missing.status).toBe(404);
  });

  it('to an assigned user a badge on the pipeline closes it to', async () => {
    const boss = (await t.signedIn(['super-admin'])).token;
    const closedId = await kit.pipeline({
      name: 'dealers FR closed',
      sources: [csvSource('dealers', { contentType: 'excel' })],
    });
    const signed = await t.signedIn(['user']);
    await kit.assign(signed.user.id, closedId);
    expect((await askHead(signed.token, sheetJsDealers('xlsx'), undefined, closedId)).status).toBe(200);
    const badge = (await t.call('POST', '/tags', { token: boss, body: { name: 'Dealers secret', type: 'project' } })).body.data
      ._id;
    const closed = await t.call('POST', '/tags/update-document-tags', {
      token: boss,
      body: { id: closedId, type: 'pipeline', tags: { read: [[badge]], write: [[badge]] } },
    });
    expect(closed.status).toBe(200);
    expect((await askHead(signed.token, sheetJsDealers('xlsx'), undefined, closedId)).status).toBe(403);
  });

  it('for a file that is not a workbook, or a crafted one, saying why', async () => {
    const csv = await askHead(token, 'Dealer Code,Name\nFR001,Garage\n');
    expect(csv.status).toBe(422);
    expect(csv.body.message).toBe('The file is not an Excel workbook (.xlsx, .xls expected).');
    // A zip archive with no workbook in it.
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array(200).fill(7)]);
    const crafted = await askHead(token, zip);
    expect(crafted.status).toBe(422);
    expect(crafted.body.message).toBe('The workbook is not a readable archive (no central directory).');
    const empty = await askHead(token, new Uint8Array());
    expect(empty).toMatchObject({ status: 422, body: { message: 'The file is empty.' } });
  });

  it('for a data source that takes no CSV file nor workbook, one not in the pipeline, or fields missing', async () => {
    const json = await askHead(token, '[{"a":1}]', { dataSubKind: 'stock' });
    expect(json).toMatchObject({ status: 422, body: { message: 'Columns are mapped for CSV files and workbooks only.' } });
    const other = await askHead(token, 'a\n1\n', { dataSubKind: 'nothing' });
    expect(other).toMatchObject({ status: 422, body: { message: 'No data source nothing in pipeline' } });
    const bare = await askHead(token, 'a\n1\n', {});
    expect(bare.status).toBe(422);
    expect(bare.body.message).toBe('Send dataSubKind before the file.');
    const notAnId = await askHead(token, 'a\n1\n', { dataSubKind: 'prices' }, 'nope');
    expect(notAnId).toMatchObject({ status: 422, body: { message: 'pipelineId: must be an id' } });
  });

  it('beyond 20 MiB, with 413', async () => {
    const res = await askHead(token, new Uint8Array(MAX_FILE_BYTES + 1).fill(0x41));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Files must be less than 20 MiB');
  });
});
