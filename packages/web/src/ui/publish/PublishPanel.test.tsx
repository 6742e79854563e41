import '../../../test/dom.ts';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { pipelineViewSchema } from '@gdb/shared/pipelines/pipeline.schemas';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeApi, ok, type Recorded, signIn, userInfo } from '../../../test/fake-api.ts';
import { pipeline, source } from '../../../test/fixtures.ts';
import { button, dialog } from '../../../test/queries.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { PublishPanel } from './PublishPanel.tsx';

const BASE = 'http://localhost:3000/gdb-runtime/v1';

const PIPELINE: PipelineView = pipelineViewSchema.parse(
  pipeline('00000000-0000-4000-8000-0000000000a1', 'Dealer prices', {
    dataSources: [{ ...source('prices', 'endpoint'), contentType: 'json' }, source('stock', 'listener')],
  }),
);

const text = (title: string, extra: Record<string, unknown> = {}) => ({ type: 'string', title, ...extra, ui: { label: title } });
const MODELS: Record<string, unknown> = {
  'rt-endpoint-info': {
    type: 'object',
    properties: {
      name: text('Name', { minLength: 1 }),
      path: text('Path', { minLength: 1, pattern: '^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$' }),
      description: text('Description'),
      callsPerMinute: { type: 'integer', title: 'Calls a minute', minimum: 1, maximum: 6000, ui: { label: 'Calls a minute' } },
    },
    required: ['name', 'path'],
  },
  'rt-listener-info': { type: 'object', properties: { pipelineName: text('Pipeline name') }, required: ['pipelineName'] },
};

const endpointView = (fields: Record<string, unknown> = {}) => ({
  _id: '00000000-0000-4000-8000-0000000000e1',
  path: 'Dealer-prices',
  name: 'Dealer prices',
  description: '',
  callsPerMinute: 600,
  pipelineId: PIPELINE._id,
  pipelineName: 'Dealer prices',
  pipelineVersion: 3,
  pipelineVLocked: true,
  componentId: null,
  componentName: null,
  componentVersion: null,
  dataSubKind: 'prices',
  contentType: 'json',
  route: `${BASE}/Dealer-prices`,
  isValid: true,
  createDate: '2026-12-01T08:00:00.000Z',
  createUsername: 'ada.lovelace',
  updateDate: '2026-12-01T08:00:00.000Z',
  updateUsername: 'ada.lovelace',
  ...fields,
});

function serve(routes: Record<string, (call: Recorded) => Response>, roles = ['manager']) {
  signIn();
  return fakeApi({
    'GET /users/info': () => ok(userInfo(roles)),
    'GET /schemas/byname': (c) => {
      const name = new URLSearchParams(c.search).get('name') ?? '';
      return ok({ _id: `s-${name}`, name, version: 2, jsonSchema: MODELS[name] });
    },
    'GET /pipelines/get-runtime-api-url': () => ok({ url: BASE }),
    ...routes,
  });
}

const at = (index: number) => {
  const s = PIPELINE.dataSources[index];
  if (!s) throw new Error('no source');
  return s;
};

describe('Publish panel of an endpoint source', () => {
  it('publishes with the form values, shows the key once with a copy button, then offers Re-Publish', async () => {
    let published = false;
    const server = serve({
      'GET /pipelines/deployed-endpoint': () => ok(published ? [endpointView()] : []),
      'POST /pipelines/publish-endpoint': () => {
        published = true;
        return ok({ ...endpointView(), apiKey: 'secret-key-1' });
      },
    });
    renderWidget(<PublishPanel pipeline={PIPELINE} source={at(0)} />);
    await screen.findByText(`Not published yet. Served below ${BASE}`);
    await waitFor(() => expect(button('Publish').disabled).toBe(false));
    expect(button('View OpenAPI').disabled).toBe(true);
    fireEvent.click(button('Publish'));
    await screen.findByText('Pipeline is successfully published');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({
      id: PIPELINE._id,
      name: 'Dealer prices',
      path: 'Dealer-prices',
      description: '',
      callsPerMinute: 600,
    });
    expect((await screen.findByTestId('endpoint-key')).textContent).toContain('secret-key-1');
    expect(screen.getByText(/it will not be shown again/)).toBeDefined();
    expect(document.querySelector('.gdb-publish-key .ant-typography-copy')).not.toBeNull();
    await waitFor(() => expect(button('Re-Publish')).toBeDefined());
    expect(screen.getAllByText(`${BASE}/Dealer-prices`).length).toBeGreaterThan(0);
  });

  it("refuses a path the data model refuses, without calling, and shows a publish failure's message", async () => {
    const server = serve({
      'GET /pipelines/deployed-endpoint': () => ok([]),
      'POST /pipelines/publish-endpoint': () => envelope(40900, 'Another pipeline is published at this path.', null, 409),
    });
    renderWidget(<PublishPanel pipeline={PIPELINE} source={at(0)} />);
    const path = await screen.findByLabelText('Path');
    fireEvent.change(path, { target: { value: '../etc' } });
    fireEvent.click(button('Publish'));
    await waitFor(() => expect(document.querySelector('.gdb-form-field--invalid')).not.toBeNull());
    expect(server.count('POST /pipelines/publish-endpoint')).toBe(0);
    fireEvent.change(path, { target: { value: 'dealers/prices' } });
    fireEvent.click(button('Publish'));
    await screen.findByText('Another pipeline is published at this path.');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ path: 'dealers/prices' });
  });

  it('shows the OpenAPI document of a published endpoint in a dialog, readable and copyable', async () => {
    const doc = { openapi: '3.1.0', info: { title: 'Dealer prices', version: '3' }, paths: { '/Dealer-prices': {} } };
    serve({
      'GET /pipelines/deployed-endpoint': () => ok([endpointView()]),
      [`GET /pipelines/deployed-endpoint/${endpointView()._id}/openapi`]: () => ok(doc),
    });
    renderWidget(<PublishPanel pipeline={PIPELINE} source={at(0)} />);
    await waitFor(() => expect(button('View OpenAPI').disabled).toBe(false));
    fireEvent.click(button('View OpenAPI'));
    const shown = await dialog('OpenAPI');
    const area = await screen.findByLabelText(/OpenAPI document/);
    expect((area as HTMLTextAreaElement).value).toBe(JSON.stringify(doc, null, 2));
    expect(shown.querySelector('.ant-typography-copy')).not.toBeNull();
  });
});

describe('Publish panel for a user who may not publish', () => {
  it('says who publishes and reads nothing of the endpoints', async () => {
    const server = serve({}, ['user']);
    renderWidget(<PublishPanel pipeline={PIPELINE} source={at(0)} />);
    await screen.findByText(/once the pipeline is published, which managers do/);
    expect(screen.queryByText('Publish')).toBeNull();
    expect(server.count('GET /pipelines/deployed-endpoint')).toBe(0);
  });
});

describe('Publish panel of a listener source', () => {
  it('shows the state of each server once published, and publishes with its form', async () => {
    const server = serve({
      'GET /pipelines/deployed-listener': () =>
        ok([
          {
            _id: 'l1',
            pipelineId: PIPELINE._id,
            pipelineName: 'Dealer prices',
            pipelineVersion: 3,
            pipelineVLocked: true,
            state: [{ hostname: 'gdb-a', state: 'consuming', last_error: null }],
            isValid: true,
            createDate: '2026-12-01T08:00:00.000Z',
            createUsername: 'ada.lovelace',
          },
        ]),
      'POST /pipelines/publish-listener': () => ok({ _id: 'l1' }),
    });
    renderWidget(<PublishPanel pipeline={PIPELINE} source={at(1)} />);
    const servers = await screen.findByRole('region', { name: 'Servers of stock' });
    expect(servers.textContent).toContain('gdb-a');
    expect(servers.textContent).toContain('consuming');
    expect(screen.queryByText('View OpenAPI')).toBeNull();
    await waitFor(() => expect(button('Re-Publish').disabled).toBe(false));
    fireEvent.click(button('Re-Publish'));
    await screen.findByText('Pipeline is successfully published');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ id: PIPELINE._id, pipelineName: 'Dealer prices' });
  });
});
