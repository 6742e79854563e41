import '../../../test/dom.ts';
import { EditorView } from '@codemirror/view';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, ok, signedInAs } from '../../../test/fake-api.ts';
import { ServedSocket } from '../../../test/live.ts';
import { button, confirmation } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { versionedFields } from '../../../test/versions-fixtures.ts';
import { configureLive } from '../../ground/live/configure.ts';

// A test run's log lines are followed on the live channel: a stand-in server answers.
beforeEach(() => {
  configureLive({ createSocket: (auth) => new ServedSocket(auth) });
});

const ID = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const PORT_MODEL = '00000000-0000-4000-8000-000000000010';

function component(over: Record<string, unknown> = {}) {
  return {
    ...versionedFields(ID, 'Check and map dealers'),
    description: 'Maps dealer rows',
    kind: 'instruction',
    testPayload: {},
    testContext: {},
    inputs: [{ name: 'dealers', inputSchema: PORT_MODEL, isJoin: false, isFork: false, inputIsJoin: true }],
    outputs: [],
    instances: [],
    links: [],
    jsCode: 'ctx.output.dealers = ctx.input.dealers;',
    dependencies: [],
    sdk: [],
    ...over,
  };
}

/** The part of rt-component these tests need: plain fields, a select and code. */
const FORM_SCHEMA = {
  type: 'object',
  title: 'Build the component',
  required: ['name', 'kind'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 1, ui: { label: 'Name' } },
    description: { type: 'string', title: 'Description', ui: { label: 'Description', widget: 'textarea' } },
    kind: {
      type: 'string',
      title: 'Kind',
      enum: ['workflow', 'forEach', 'instruction', 'function'],
      ui: { label: 'Kind', widget: 'select' },
    },
    jsCode: { type: 'string', title: 'Code', ui: { label: 'Code', widget: 'code' } },
  },
};

const DEALER_ROWS = { type: 'array', items: { type: 'object', properties: { dealerId: { type: 'string' } } } };

/** The code editor in `within`, once its chunk has loaded. */
async function codeEditor(within: HTMLElement): Promise<EditorView> {
  const host = await waitFor(() => {
    const found = within.querySelector('.cm-editor');
    if (!found) throw new Error('no code editor yet');
    return found as HTMLElement;
  });
  const view = EditorView.findFromDOM(host);
  if (!view) throw new Error('no editor view');
  return view;
}

const OPEN = { read: [], write: [] };
const leaf = (id: string, name: string) => ({
  value: id,
  label: name,
  type: 'leaf',
  children: [],
  versions: [{ _id: id, version: 1, vLocked: false }],
  tags: OPEN,
  metadataTags: [],
});
const TREE = [
  {
    value: 'root',
    label: 'Components',
    type: 'folder',
    versions: [],
    tags: OPEN,
    metadataTags: [],
    children: [leaf(ID, 'Check and map dealers'), leaf(OTHER, 'Slow dealer check')],
  },
];

async function openComponent(over: Record<string, unknown> = {}, routes: Parameters<typeof signedInAs>[1] = {}) {
  const server = signedInAs(['manager'], {
    'GET /folders/tree': () => ok(TREE),
    'GET /schemas/byname': () => ok({ _id: PORT_MODEL, name: 'rt-component', version: 1, jsonSchema: FORM_SCHEMA }),
    'GET /components/find': (call) =>
      ok(
        new URLSearchParams(call.search).get('id') === OTHER
          ? component({ _id: OTHER, familyId: OTHER, name: 'Slow dealer check' })
          : component(over),
      ),
    'GET /schemas': () => ok([{ ...versionedFields(PORT_MODEL, 'Dealer rows'), jsonSchema: DEALER_ROWS }]),
    ...routes,
  });
  const app = renderApp(`/manage/components?id=${ID}`);
  await screen.findByText(`Check and map dealers (v.1 - ${over.vLocked ? 'Prod' : 'Draft'})`);
  await waitFor(() => expect(description().value).toBe('Maps dealer rows'));
  return { server, app };
}

const description = () => screen.getByLabelText('Description') as HTMLTextAreaElement;

describe('Components page', () => {
  it('opens the component of the address and saves the edited form with the save count it was read at', async () => {
    const { server } = await openComponent(
      {},
      { 'POST /components': (call) => ok({ ...component(), ...(call.body as object), sys_version: 4 }) },
    );
    expect(screen.getByRole('heading', { name: 'Check and map dealers' })).toBeTruthy();
    fireEvent.change(description(), { target: { value: 'Checks and maps dealer rows' } });
    fireEvent.click(button('Save'));
    await screen.findByText('Component saved');
    const posted = server.calls.find((c) => c.method === 'POST' && c.path === '/components')?.body;
    expect(posted).toMatchObject({
      _id: ID,
      sys_version: 3,
      folder: null,
      name: 'Check and map dealers',
      description: 'Checks and maps dealer rows',
      kind: 'instruction',
      jsCode: 'ctx.output.dealers = ctx.input.dealers;',
      inputs: [{ name: 'dealers', inputSchema: PORT_MODEL, inputIsJoin: true }],
    });
  });

  it('shows a locked version as production and its form read-only, with Save disabled', async () => {
    await openComponent({ vLocked: true });
    expect(description().disabled).toBe(true);
    expect(button('Save').disabled).toBe(true);
    expect(button('Unlock').disabled).toBe(false);
  });

  it("shows the server's refusal of a save made over a newer one", async () => {
    const refusal = 'This component was saved by someone else since you opened it; reload it.';
    await openComponent({}, { 'POST /components': () => envelope(40900, refusal, null, 409) });
    fireEvent.change(description(), { target: { value: 'Mine' } });
    fireEvent.click(button('Save'));
    await screen.findByText(refusal);
  });

  it('asks before another component drops unsaved changes, then lists both in the breadcrumb', async () => {
    const { app } = await openComponent();
    fireEvent.change(description(), { target: { value: 'Not saved' } });
    const tree = screen.getByRole('tree', { name: 'Components' });
    fireEvent.click(
      await waitFor(
        () => [...tree.querySelectorAll('.gdb-explorer-label')].find((e) => e.textContent === 'Slow dealer check') as HTMLElement,
      ),
    );
    const question = await confirmation();
    expect(question.textContent).toContain('Current component would be lost, are you sure?');
    fireEvent.click(button('Yes', question));
    await screen.findByText('Slow dealer check (v.1 - Draft)');
    expect(app.where()).toBe(`/manage/components?id=${OTHER}`);
    const trail = screen.getByRole('navigation', { name: 'Opened components' });
    fireEvent.click(button('Check and map dealers', trail));
    await screen.findByText('Check and map dealers (v.1 - Draft)');
    expect(app.where()).toBe(`/manage/components?id=${ID}`);
  });

  it("edits the code in the code dialog beside the ports' data models; Save applies it to the form", async () => {
    const { server } = await openComponent(
      {},
      { 'POST /components': (call) => ok({ ...component(), ...(call.body as object), sys_version: 4 }) },
    );
    fireEvent.click(button('Edit code'));
    const dialog = await screen.findByRole('dialog', { name: 'Check and map dealers' });
    await waitFor(() => expect(dialog.textContent).toContain('dealerId : string'));
    const view = await codeEditor(dialog);
    expect(view.state.doc.toString()).toBe('ctx.output.dealers = ctx.input.dealers;');
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: 'ctx.output.dealers = [];' } });
    fireEvent.click(button('Hide schemas', dialog));
    expect(dialog.textContent).not.toContain('dealerId : string');
    expect(button('Show schemas', dialog)).toBeTruthy();
    fireEvent.click(button('Save', dialog));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Check and map dealers' })).toBeNull());
    fireEvent.click(screen.getAllByRole('button', { name: 'Save' })[0] as HTMLElement);
    await screen.findByText('Component saved');
    const posted = server.calls.find((c) => c.method === 'POST' && c.path === '/components')?.body;
    expect(posted).toMatchObject({ jsCode: 'ctx.output.dealers = [];' });
  });

  it("offers no Save in the code dialog of a locked version, and asks 'Quit ?' at the close control", async () => {
    await openComponent({ vLocked: true });
    fireEvent.click(button('Edit code'));
    const dialog = await screen.findByRole('dialog', { name: 'Check and map dealers' });
    expect([...dialog.querySelectorAll('button')].map((b) => b.textContent)).not.toContain('Save');
    fireEvent.click(dialog.querySelector('.ant-modal-close') as HTMLElement);
    const question = await confirmation();
    expect(question.textContent).toContain('Quit ?');
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Check and map dealers' })).toBeNull());
  });

  it('lists the SDK functions in the SDK dialog, those the component uses marked Yes', async () => {
    const sdkEntry = (id: string, functionName: string) => ({
      ...versionedFields(id, functionName),
      functionName,
      documentation: `${functionName} documentation`,
      input: 'a row',
      output: 'a row',
      error: 'none',
      modules: [{ name: 'dayjs', version: '1.11.13' }],
    });
    await openComponent(
      { sdk: [OTHER] },
      { 'GET /components/documentation': () => ok([sdkEntry(OTHER, 'formatDate'), sdkEntry(PORT_MODEL, 'cleanName')]) },
    );
    fireEvent.click(button('SDK functions'));
    const dialog = await screen.findByRole('dialog', { name: 'SDK functions' });
    const headers = [...dialog.querySelectorAll('th')].map((th) => th.textContent);
    expect(headers).toEqual(['isUsed', 'Name', 'Documentation', 'Input', 'Output', 'Error', 'modules', 'tags', 'version']);
    const row = await waitFor(() => screen.getByText('formatDate').closest('tr') as HTMLElement);
    expect(row.textContent).toContain('Yes');
    expect(row.textContent).toContain('dayjs@1.11.13');
    expect((screen.getByText('cleanName').closest('tr') as HTMLElement).textContent).toContain('No');
  });

  it('draws the schematic of a workflow with its ports as text, and following an instance opens its component', async () => {
    const workflow = {
      kind: 'workflow',
      outputs: [{ name: 'mapped', outputSchema: null, isJoin: false, isFork: false }],
      instances: [{ name: 'check', instanceOf: OTHER }],
      links: [
        {
          name: 'toCheck',
          fromInstance: '',
          fromPort: 'dealers',
          toInstance: 'check',
          toPort: 'dealers',
          jsCode: '',
          inputSchema: null,
          outputSchema: null,
        },
        {
          name: 'fromCheck',
          fromInstance: 'check',
          fromPort: 'dealers',
          toInstance: '',
          toPort: 'mapped',
          jsCode: '',
          inputSchema: null,
          outputSchema: null,
        },
      ],
    };
    const used = component({
      _id: OTHER,
      familyId: OTHER,
      name: 'Slow dealer check',
      outputs: [{ name: 'dealers', outputSchema: null, isJoin: false, isFork: false }],
    });
    const { app } = await openComponent(workflow, { 'GET /components': () => ok([used]) });
    fireEvent.click(screen.getByText('View component schematic'));
    const figure = await screen.findByRole('figure', { name: 'Component schematic' });
    await waitFor(() => expect(figure.textContent).toContain('{dealerId: string}[]'));
    expect(figure.textContent).toContain('toCheck');
    expect(figure.textContent).toContain('fromCheck');
    const follow = await waitFor(() => screen.getByRole('link', { name: 'Slow dealer check v1' }));
    expect(follow.getAttribute('href')).toBe(`/manage/components?id=${OTHER}`);
    fireEvent.click(follow);
    await screen.findByText('Slow dealer check (v.1 - Draft)');
    expect(app.where()).toBe(`/manage/components?id=${OTHER}`);
    const trail = screen.getByRole('navigation', { name: 'Opened components' });
    expect(button('Check and map dealers', trail)).toBeTruthy();
  });

  it('names the component and the missing instance when a link cannot be drawn', async () => {
    const broken = {
      kind: 'workflow',
      links: [
        {
          name: 'lost',
          fromInstance: 'ghost',
          fromPort: 'x',
          toInstance: '',
          toPort: 'dealers',
          jsCode: '',
          inputSchema: null,
          outputSchema: null,
        },
      ],
    };
    await openComponent(broken);
    fireEvent.click(screen.getByText('View component schematic'));
    await screen.findByText('Component "Check and map dealers" v1: link "lost" cannot find instance "ghost"');
  });

  it('runs a test with ctx.input and ctx.rt_context and shows ctx.output and the logs', async () => {
    const { server } = await openComponent(
      { testPayload: { dealers: [{ dealerId: 'D1' }] } },
      {
        [`POST /components/${ID}/execute`]: () =>
          ok({
            output: { dealers: [{ dealerId: 'D1' }] },
            logs: [{ level: 'info', message: '1 dealer mapped', date: '2026-12-06T10:00:00.000Z' }],
            rt_context: { user: 'me' },
          }),
      },
    );
    fireEvent.click(screen.getByText('Test component'));
    fireEvent.click(await waitFor(() => button('Run test')));
    const logs = await screen.findByRole('region', { name: 'Logs' });
    await waitFor(() => expect(logs.textContent).toContain('[info] 1 dealer mapped'));
    const output = screen.getByRole('region', { name: 'ctx.output' });
    expect(output.textContent).toContain('"dealerId": "D1"');
    const run = server.calls.find((c) => c.method === 'POST' && c.path === `/components/${ID}/execute`);
    expect(run?.body).toEqual({ payload: { dealers: [{ dealerId: 'D1' }] }, rt_context: {}, runId: expect.any(String) });
    expect(screen.queryByRole('button', { name: 'Copy js code to clipboard' })).toBeNull();
  });

  it("shows 'Execute error : {detail}' when a run fails", async () => {
    await openComponent({}, { [`POST /components/${ID}/execute`]: () => envelope(50000, 'the code threw: boom', null, 422) });
    fireEvent.click(screen.getByText('Test component'));
    fireEvent.click(await waitFor(() => button('Run test')));
    await screen.findByText('Execute error : the code threw: boom');
  });
});
