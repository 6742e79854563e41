import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { pipeline, ref, staticTypes } from '../../../test/fixtures.ts';
import { button } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';

const MASTER = '00000000-0000-4000-8000-000000000001';
const COUNTRY = '00000000-0000-4000-8000-000000000002';
const COMPONENT = '00000000-0000-4000-8000-000000000010';
const MADE = '00000000-0000-4000-8000-000000000003';

/** The part of rt-pipeline these tests need; brand, locale, product line and datakind become selects on the page. */
const FORM_SCHEMA = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, ui: { label: 'Name' } },
    isMaster: { type: 'boolean', title: 'Master', ui: { label: 'Master', widget: 'checkbox' } },
    masterPipeline: { type: 'string', title: 'Master pipeline', ui: { label: 'Master pipeline', widget: 'pipeline' } },
    component: { type: 'string', title: 'Component', ui: { label: 'Component' } },
    brand: { type: 'string', title: 'Brand', ui: { label: 'Brand', widget: 'select' } },
    locale: { type: 'object', title: 'Locale', properties: { language: { type: 'string' } } },
    productLine: { type: 'string', title: 'Product line', ui: { label: 'Product line', widget: 'select' } },
    datakind: { type: 'string', title: 'Datakind', ui: { label: 'Datakind', widget: 'select' } },
  },
};

const master = (over: Record<string, unknown> = {}) =>
  pipeline(MASTER, 'cars', { isMaster: true, vLocked: false, version: 1, component: COMPONENT, ...over });
const country = (over: Record<string, unknown> = {}) =>
  pipeline(COUNTRY, 'cars FR', {
    vLocked: false,
    version: 1,
    masterPipeline: null,
    component: null,
    brand: null,
    locale: null,
    productLine: null,
    datakind: null,
    dataSources: [],
    ...over,
  });

type Docs = Record<string, ReturnType<typeof master>>;

async function open(id: string, routes: Record<string, Handler> = {}, docs: Docs = { [MASTER]: master(), [COUNTRY]: country() }) {
  const server = signedInAs(['manager'], {
    'GET /folders/tree': () => ok([]),
    'GET /schemas/byname': () => ok({ _id: MADE, name: 'rt-pipeline', version: 1, jsonSchema: FORM_SCHEMA }),
    'GET /users/pipelines': () =>
      ok({ staticTypes: staticTypes([ref('b1', 'Brand One'), ref('b2', 'Brand Two')]), pipelines: [] }),
    'GET /pipelines/masters': () => ok([docs[MASTER]]),
    'GET /pipelines/id': (call) => ok(docs[new URLSearchParams(call.search).get('id') ?? ''] ?? master()),
    ...routes,
  });
  const app = renderApp(`/manage/pipeline?id=${id}`);
  await screen.findByRole('heading', { name: docs[id]?.isMaster ? 'MASTER Pipeline [cars]' : 'Country Pipeline [cars FR]' });
  await waitFor(() => expect(nameInput().value).toBe(docs[id]?.name));
  return { server, app };
}

const nameInput = () => screen.getByLabelText('Name') as HTMLInputElement;
const componentInput = () => screen.getByLabelText('Component') as HTMLInputElement;
const selectShown = (label: string) =>
  screen.getByLabelText(label).closest('.ant-select')?.querySelector('.ant-select-content')?.textContent ?? '';
const posted = (server: Awaited<ReturnType<typeof open>>['server']) =>
  server.calls.find((c) => c.method === 'POST' && c.path === '/pipelines')?.body as Record<string, unknown> | undefined;

describe('Pipelines page', () => {
  it("opens the master of the address, 'MASTER Pipeline [name]', and saves the form with the save count it was read at", async () => {
    const { server } = await open(MASTER, {
      'POST /pipelines': () => ok(master({ name: 'cars EU', sys_version: 2 })),
    });
    expect(selectShown('Brand')).toBe('Brand One');
    expect(selectShown('Locale')).toBe('French (fr_FR)');
    fireEvent.change(nameInput(), { target: { value: 'cars EU' } });
    fireEvent.click(button('Save'));
    await screen.findByText('Pipeline saved');
    await screen.findByRole('heading', { name: 'MASTER Pipeline [cars EU]' });
    expect(posted(server)).toMatchObject({
      _id: MASTER,
      version: 1,
      sys_version: 1,
      name: 'cars EU',
      isMaster: true,
      component: COMPONENT,
      brand: 'b1',
      locale: 'l1',
      productLine: 'pl1',
      datakind: 'd1',
      dataSources: [{ dataSubKind: 'main', connectorType: 'manual', dataModel: null }],
    });
  });

  it('checks the save rules before sending: a country needs its master', async () => {
    const { server } = await open(COUNTRY);
    fireEvent.click(button('Save'));
    await screen.findByText('Country Pipeline must inherit from a master pipeline');
    expect(posted(server)).toBeUndefined();
  });

  it('copies what a country inherits when its master is chosen, and empties it when the master is cleared', async () => {
    await open(COUNTRY);
    fireEvent.mouseDown(screen.getByLabelText('Pipeline'));
    fireEvent.click(await screen.findByText('cars (v.1 - Draft)'));
    await waitFor(() => expect(componentInput().value).toBe(COMPONENT));
    expect(selectShown('Brand')).toBe('Brand One');
    expect(selectShown('Datakind')).toBe('dealer');
    const clear = screen.getByLabelText('Pipeline').closest('.ant-select')?.querySelector('.ant-select-clear') as HTMLElement;
    fireEvent.mouseDown(clear);
    fireEvent.click(clear);
    await waitFor(() => expect(componentInput().value).toBe(''));
    expect(selectShown('Brand')).toBe('');
  });

  it("makes a 'New pipeline' from a name and opens it", async () => {
    const made = master({ _id: MADE, familyId: MADE, name: 'trucks', component: null });
    const { server, app } = await open(
      MASTER,
      { 'POST /pipelines': () => ok(made) },
      { [MASTER]: master(), [COUNTRY]: country(), [MADE]: made },
    );
    fireEvent.click(button('New pipeline'));
    const create = await waitFor(() => button('Create'));
    expect(create.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Name', { selector: '.ant-modal input' }), { target: { value: 'trucks' } });
    await waitFor(() => expect(button('Create').disabled).toBe(false));
    fireEvent.click(button('Create'));
    await screen.findByRole('heading', { name: 'MASTER Pipeline [trucks]' });
    expect(posted(server)).toEqual({ name: 'trucks', folder: null, isMaster: true });
    expect(app.router.state.location.search).toBe(`?id=${MADE}`);
  });

  it('shows a locked version read-only, with Save disabled', async () => {
    await open(MASTER, {}, { [MASTER]: master({ vLocked: true }), [COUNTRY]: country() });
    expect(nameInput().disabled).toBe(true);
    expect(button('Save').disabled).toBe(true);
  });
});
