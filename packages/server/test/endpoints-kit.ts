import { expect } from 'vitest';
import { buildDataModel } from './factories.ts';
import { csvSource, importKit, sink } from './imports-kit.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * An app for endpoint tests: a manager, a data model of price rows {code, price}, import workers
 * running, and `published` to make a runnable pipeline fed by an endpoint source and publish it.
 */
export async function endpointKit() {
  const t: TestApp = await createTestApp();
  const kit = await importKit(t);
  const manager = (await t.signedIn(['manager'])).token;
  const dataModel = await buildDataModel(t, 'price rows', {
    type: 'object',
    properties: { code: { type: 'string', minLength: 1 }, price: { type: 'number' } },
    required: ['code', 'price'],
  });
  await t.services.imports.startWorking({ concurrency: 2 });

  /**
   * A pipeline running `code` on the rows of an endpoint source taking `contentType` (JSON unless
   * said), published at `path` by `token`'s user (the kit's manager unless said); answers its id and key.
   */
  async function published(
    path: string,
    code: string,
    options: { callsPerMinute?: number; token?: string; contentType?: 'json' | 'csv' | 'xml' | 'excel' } = {},
  ) {
    const { callsPerMinute, token = manager, contentType = 'json' } = options;
    const component = await kit.component(code, ['prices'], ['out']);
    const source = csvSource('prices', { connectorType: 'endpoint', contentType, dataModel });
    const id = await kit.pipeline({ name: path, component, sources: [source], sinks: [sink('out', 'JSON')] });
    const res = await t.call('POST', '/pipelines/publish-endpoint', { token, body: { id, path, callsPerMinute } });
    expect(res.status).toBe(200);
    return { id, key: res.body.data.apiKey as string };
  }
  return { t, kit, manager, dataModel, published };
}
