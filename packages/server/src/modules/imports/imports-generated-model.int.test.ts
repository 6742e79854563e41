import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKit, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { fieldPart, fileHead, multipartBody, partEnd } from '../../../test/upload-client.ts';

// A data model generated from an example workbook takes that same workbook: its dates, date-times
// and times pass the formats the model was given, through the upload's check and the import.

const CORPUS = path.join(import.meta.dirname, '../../../test/corpus/excel');

let t: TestApp;
let kit: Awaited<ReturnType<typeof importKit>>;
let manager: string;

beforeAll(async () => {
  t = await createTestApp();
  kit = await importKit(t);
  manager = (await t.signedIn(['manager'])).token;
  await t.services.imports.startWorking({ concurrency: 1 });
});
afterAll(async () => {
  await t.close();
});

/** The data model POST /schemas/generate makes of a file, saved as a new data model; answers its id. */
async function generatedModel(file: string, bytes: Uint8Array): Promise<{ id: string; jsonSchema: unknown }> {
  const { body, headers } = multipartBody([
    fieldPart('omitStartingArray', 'true'),
    fileHead('file', file),
    Buffer.from(bytes),
    partEnd,
  ]);
  const generated = await t.call('POST', '/schemas/generate', { token: manager, body, headers });
  expect(generated.status, generated.body.message).toBe(200);
  const jsonSchema = generated.body.data[0];
  const saved = await t.call('POST', '/schemas', {
    token: manager,
    body: { name: `Generated from ${file}`, jsonSchema, folder: null },
  });
  expect(saved.status, saved.body.message).toBe(200);
  return { id: saved.body.data._id, jsonSchema };
}

/** The ISO text of a log line's rows, as the component wrote them. */
const ROWS_LOGGED = `ctx.output.out = ctx.input.dates;
ctx.log.info('rows ' + JSON.stringify(ctx.input.dates.map((r) => [r.code, r.day, r.at, r.time])));`;

describe('a data model generated from an example workbook', () => {
  it.each(['dates.xlsx', 'lo-dates.xlsx', 'dates.xls'])(
    'takes the same workbook (%s) through the upload and the import',
    async (file) => {
      const bytes = new Uint8Array(fs.readFileSync(path.join(CORPUS, file)));
      const model = await generatedModel(file, bytes);
      expect(model.jsonSchema).toMatchObject({
        properties: {
          day: { type: 'string', format: 'date' },
          at: { type: 'string', format: 'date-time' },
          time: { type: 'string', format: 'time' },
        },
      });
      const component = await kit.component(ROWS_LOGGED, ['dates'], ['out']);
      const source = {
        dataSubKind: 'dates',
        connectorType: 'manual',
        dataFromMaster: false,
        contentType: 'excel',
        dataModel: model.id,
      } as const;
      const pipelineId = await kit.pipeline({ name: `generated ${file}`, component, sources: [source], sinks: [sink('out')] });

      const uploadId = await kit.upload(manager, pipelineId, 'dates', bytes, file);
      const upload = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirstOrThrow();
      expect(upload.status).toBe('valid');

      const run = await t.call('POST', '/imports', { token: manager, body: { pipelineId, kind: 'immediate' } });
      expect(run.status, run.body.message).toBe(200);
      const { importId } = run.body.data;
      expect((await kit.waitFor(importId, ['done', 'failed'])).state).toBe('done');
      expect(await kit.messages(importId)).toContain(
        `rows ${JSON.stringify([
          ['D1', '2026-03-01', '2026-03-01T14:30:00', '14:30:00'],
          ['D2', '1999-12-31', '2000-01-01T00:00:05', '23:59:59'],
        ])}`,
      );
    },
  );
});
