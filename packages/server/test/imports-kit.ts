import type { DataSink, DataSource } from '@gdb/shared/pipelines/pipeline.schemas';
import type { ImportRow } from '../src/modules/imports/imports.repo.ts';
import { assignPipeline, superAdmin } from './factories.ts';
import type { TestApp } from './test-app.ts';

// Fixtures for the imports tests: reference data, components, pipelines, uploads, waiting for states.

const boundary = '----gdb-imports-boundary';

/** A multipart body with the pipelineId field and one file part per data source. */
export function multipart(
  pipelineId: string,
  files: { field: string; name: string; content: string | Uint8Array }[],
  fields: Record<string, string> = {},
) {
  const parts: Buffer[] = Object.entries({ pipelineId, ...fields }).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.from(f.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const csvSource = (dataSubKind: string, extra: Partial<DataSource> = {}): DataSource => ({
  dataSubKind,
  connectorType: 'manual',
  dataFromMaster: false,
  contentType: 'csv',
  dataModel: null,
  ...extra,
});

export const sink = (name: string, format: DataSink['format'] = 'CSV', target: DataSink['target'] = null): DataSink => ({
  name,
  format,
  target,
});

export async function importKit(t: TestApp) {
  const [brands, locales, productLines, datakinds] = await Promise.all([
    t.services.reference.brands(),
    t.services.reference.locales(),
    t.services.reference.productLines(),
    t.services.reference.datakinds(),
  ]);
  const props = {
    brand: brands[0]?._id ?? null,
    locale: locales[0]?._id ?? null,
    productLine: productLines[0]?._id ?? null,
    datakind: datakinds.find((d) => d.isDealer)?._id ?? null,
  };
  let count = 0;

  const kit = {
    props,

    /** An instruction component with these input and output ports. */
    async component(jsCode: string, inputs: string[], outputs: string[]): Promise<string> {
      count += 1;
      const saved = await t.services.components.save(superAdmin(), {
        name: `component ${count}`,
        kind: 'instruction',
        inputs: inputs.map((name) => ({ name })),
        outputs: outputs.map((name) => ({ name })),
        jsCode,
      });
      return saved._id;
    },

    /** A pipeline with its four properties set, unless `bare`. */
    async pipeline(p: {
      name: string;
      component?: string | null;
      sources?: DataSource[];
      sinks?: DataSink[];
      isMaster?: boolean;
      masterPipeline?: string | null;
      bare?: boolean;
    }): Promise<string> {
      return t.services.pipelines.create({
        name: p.name,
        isMaster: p.isMaster ?? false,
        masterPipeline: p.masterPipeline ?? null,
        component: p.component ?? null,
        dataSources: p.sources ?? [],
        dataSinks: p.sinks ?? [],
        ...(p.bare ? {} : props),
      });
    },

    /** Gives a user with the role user a pipeline (its family), active. */
    assign: (userId: string, pipelineId: string): Promise<void> => assignPipeline(t, userId, pipelineId),

    /** Uploads a CSV into a data source and waits for its check; answers the upload id. */
    async upload(
      token: string,
      pipelineId: string,
      field: string,
      content: string | Uint8Array,
      name = `${field}.csv`,
      fields: Record<string, string> = {},
    ): Promise<string> {
      const { body, headers } = multipart(pipelineId, [{ field, name, content }], fields);
      const res = await t.call('POST', '/uploads', { token, body, headers });
      if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.body.message}`);
      await t.services.uploads.settled();
      return res.body.data[0];
    },

    /** The import row once it is in one of the states (polling the database). */
    async waitFor(importId: string, states: readonly string[], timeoutMs = 20_000): Promise<ImportRow> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const row = await t.ctx.db.kysely.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirst();
        if (row && states.includes(row.state)) return row;
        if (Date.now() > deadline)
          throw new Error(`import ${importId} still ${row?.state ?? 'missing'}, expected ${states.join('|')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },

    /** The messages of an import's logs, oldest first. */
    async messages(importId: string): Promise<string[]> {
      return (await t.services.logs.forImport(importId)).map((l) => l.message);
    },
  };
  return kit;
}
