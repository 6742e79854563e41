import '../../../test/dom.ts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { pipeline, ref, source, staticTypes } from '../../../test/fixtures.ts';
import { FakeSocket, hex } from '../../../test/live.ts';
import { button, dialog } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { configureLive } from '../../ground/live/configure.ts';

const A = '00000000-0000-4000-8000-000000000001';
const PIPELINES = {
  staticTypes: staticTypes([ref('b1', 'Brand One'), ref('b2', 'Brand Two')]),
  pipelines: [
    pipeline(A, 'Country A', {
      dataSources: [
        source('main'),
        source('prices'),
        source('feed', 'real-time'),
        source('api', 'endpoint'),
        source('queue', 'listener'),
        source('inherited', 'manual', true),
      ],
    }),
    pipeline('00000000-0000-4000-8000-000000000002', 'Other brand', { brand: ref('b2', 'Brand Two') }),
    pipeline('00000000-0000-4000-8000-000000000003', 'Master', { isMaster: true }),
  ],
};

const leafOf = (id: string, label: string) => ({
  value: id,
  label,
  type: 'leaf',
  children: [],
  versions: [{ _id: id, version: 3, vLocked: true }],
  tags: { read: [], write: [] },
  metadataTags: [],
});

let folders: { value: string; label: string }[] = [];

/** The pipeline tree: the root with the folders made so far, then the three pipelines. */
const pipelineTree = () => [
  {
    value: 'root',
    label: 'Pipelines',
    type: 'folder',
    children: [
      ...folders.map((f) => ({ ...leafOf(f.value, f.label), type: 'folder', versions: [] })),
      leafOf(A, 'Country A'),
      leafOf('00000000-0000-4000-8000-000000000003', 'Master'),
      leafOf('00000000-0000-4000-8000-000000000002', 'Other brand'),
    ],
    versions: [],
    tags: { read: [], write: [] },
    metadataTags: [],
  },
];

const log = (id: string, uploadId: string, message: string, level = 'info') => ({
  _id: id,
  logDate: '2026-11-22T08:00:00.000Z',
  level,
  message,
  dataSubKind: 'main',
  uploadId,
  importId: null,
});

const liveUpload = (id: string, status: string) => ({
  _id: id,
  pipelineId: A,
  dataSubKind: 'main',
  from: 'source',
  status,
  originalFilename: 'rows.csv',
  contentType: 'text/csv',
  size: 8,
  rowCount: 1,
  importId: null,
  enabled: true,
  createdAt: '2026-11-22T08:00:00.000Z',
  createdBy: 'u1',
  importedAt: null,
  importedBy: null,
  sentFrom: 'testing',
});

// One factory for the whole file: the tab's live client outlives a test while it is open.
const sockets: FakeSocket[] = [];
configureLive({
  createSocket: (auth) => {
    const s = new FakeSocket(auth);
    sockets.push(s);
    return s;
  },
});
const socket = () => {
  const s = sockets.at(-1);
  if (!s) throw new Error('no socket');
  return s;
};

beforeEach(() => {
  folders = [];
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function open(extra: Record<string, Handler> = {}) {
  const server = signedInAs(['user'], {
    'GET /users/pipelines': () => ok(PIPELINES),
    'GET /folders/tree': () => ok(pipelineTree()),
    ...extra,
  });
  const app = renderApp('/testing/index');
  await app.opened('/testing/index');
  await screen.findByText('Country A');
  return server;
}

const tree = () => screen.getByRole('tree', { name: 'Pipeline folders' });
const fileInput = (label: string) => screen.getByLabelText(label, { selector: 'input[type=file]' }) as HTMLInputElement;
const choose = (label: string, name = 'rows.csv') =>
  fireEvent.change(fileInput(label), { target: { files: [new File(['a,b\n1,2\n'], name, { type: 'text/csv' })] } });

/** Opens the filter named `label` and picks `option`. */
async function pick(label: string, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  const found = await waitFor(() => {
    const o = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((x) => x.title === option);
    expect(o).toBeDefined();
    return o as HTMLElement;
  });
  fireEvent.click(found);
}

/** Plays the server: answers the init of the subscription on `collectionName` with `filter`. */
async function serveInit(collectionName: string, filter: Record<string, unknown>, data: unknown[]) {
  await waitFor(() =>
    expect(
      socket()
        .subscribes()
        .some((s) => s.collectionName === collectionName && JSON.stringify(s.filter) === JSON.stringify(filter)),
    ).toBe(true),
  );
  await act(async () => {
    socket().fire('init', hex({ subscriptionId: socket().idOf(filter), data }));
    await new Promise((r) => setTimeout(r, 5));
  });
}

describe('Testing view', () => {
  it('shows the pipeline folder tree, and the filters narrow the pipelines it shows', async () => {
    const server = await open();
    const titles = () => [...tree().querySelectorAll('.gdb-explorer-label')].map((t) => t.textContent);
    expect(titles()).toEqual(['Pipelines', 'Country A', 'Master', 'Other brand']);
    expect(new URLSearchParams(server.calls.find((c) => c.path === '/folders/tree')?.search).get('kind')).toBe('pipeline');
    await pick('Brand', 'Brand Two');
    await waitFor(() => expect(titles()).toEqual(['Pipelines', 'Other brand']));
    expect(screen.getByText('Choose a pipeline to send files.')).toBeDefined();
  });

  it('shows one file input per manual data source, labelled by its dataSubKind, and Send only once a file is chosen', async () => {
    await open();
    fireEvent.click(within(tree()).getByText('Country A'));
    await screen.findByLabelText('main');
    expect(fileInput('main').type).toBe('file');
    expect(fileInput('prices').accept).toContain('.csv');
    for (const other of ['feed', 'api', 'queue', 'inherited']) expect(screen.queryByLabelText(other)).toBeNull();
    expect(document.querySelectorAll('input[type=file]')).toHaveLength(2);
    expect(button('Send').disabled).toBe(true);
    // The app's drop zone (antd Upload), not a bare file input: the input itself is not shown.
    const zone = screen.getByRole('button', { name: 'Drop a prices file here or click to choose one' });
    expect(zone.closest('.ant-upload-wrapper')).not.toBeNull();
    expect(zone.contains(fileInput('prices'))).toBe(true);
    choose('prices', 'a-rather-long-file-name-of-dealers-exported-in-december.csv');
    await waitFor(() => expect(button('Send').disabled).toBe(false));
    expect(
      screen.getByText('a-rather-long-file-name-of-dealers-exported-in-december.csv').closest('.gdb-file-name'),
    ).not.toBeNull();
    fireEvent.click(button('Remove'));
    await waitFor(() => expect(button('Send').disabled).toBe(true));
  });

  it('refuses a file of 20 MiB or more in place, without sending it', async () => {
    await open();
    fireEvent.click(within(tree()).getByText('Country A'));
    const big = new File(['x'], 'big.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 20 * 1024 * 1024 });
    fireEvent.change(await screen.findByLabelText('main'), { target: { files: [big] } });
    expect((await screen.findByRole('alert')).textContent).toBe('Files must be less than 20 MiB');
    expect(fileInput('main').getAttribute('aria-invalid')).toBe('true');
    expect(button('Send').disabled).toBe(true);
  });

  it('sends the chosen files as one multipart and shows the live logs and status of the created uploads', async () => {
    const server = await open({ 'POST /uploads': () => ok(['u1']) });
    fireEvent.click(within(tree()).getByText('Country A'));
    await screen.findByLabelText('main');
    choose('main');
    await waitFor(() => expect(button('Send').disabled).toBe(false));
    fireEvent.click(button('Send'));
    await waitFor(() => expect(server.count('POST /uploads')).toBe(1));
    const form = server.fetchMock.mock.calls.find(([url]) => String(url).endsWith('/uploads'))?.[1]?.body;
    if (!(form instanceof FormData)) throw new Error('not a form');
    expect(form.get('pipelineId')).toBe(A);
    // Labelled as sent from here, so the wizard's lists say so.
    expect(form.get('sentFrom')).toBe('testing');
    const part = form.get('main');
    expect(part instanceof File && part.name).toBe('rows.csv');
    expect(form.get('prices')).toBeNull();
    // The inputs are emptied for the next send.
    await waitFor(() => expect(button('Send').disabled).toBe(true));

    await act(async () => {
      socket().open();
      await new Promise((r) => setTimeout(r, 0));
    });
    await serveInit('logs', { uploadId: ['u1'] }, [log('l1', 'u1', 'File received'), log('l2', 'u1', 'Rows checked', 'success')]);
    await serveInit('uploads', { _id: ['u1'] }, [liveUpload('u1', 'valid')]);
    // Newest first, as the live feed gives them.
    await waitFor(() =>
      expect([...document.querySelectorAll('.gdb-log-message')].map((l) => l.textContent)).toEqual([
        'Rows checked',
        'File received',
      ]),
    );
    const sent = document.querySelector<HTMLElement>('[aria-label="Sent files"]');
    if (!sent) throw new Error('no sent files');
    expect(within(sent).getByText('rows.csv')).toBeDefined();
    expect(within(sent).getByText('Testing View')).toBeDefined();
    expect(within(sent).getByLabelText('valid')).toBeDefined();
  });

  it('only logs an upload error: no message shows', async () => {
    const failure = vi.spyOn(console, 'error').mockImplementation(() => {});
    const server = await open({ 'POST /uploads': () => envelope(40000, 'Data source main does not take uploads.', null) });
    fireEvent.click(within(tree()).getByText('Country A'));
    await screen.findByLabelText('main');
    choose('main');
    await waitFor(() => expect(button('Send').disabled).toBe(false));
    fireEvent.click(button('Send'));
    await waitFor(() => expect(server.count('POST /uploads')).toBe(1));
    await waitFor(() => expect(failure).toHaveBeenCalledWith('error while uploading files', expect.any(Error)));
    expect(document.querySelector('.ant-message-notice')).toBeNull();
    expect(screen.queryByText('Data source main does not take uploads.')).toBeNull();
    expect(screen.queryByText('Upload failed, please try again later!')).toBeNull();
    // The chosen file stays, so the user can send again.
    expect(button('Send').disabled).toBe(false);
  });

  it('creates a folder in the root: Validate waits for a name, the tree is read again and the selected pipeline is cleared', async () => {
    const server = await open({
      'POST /folders': (call) => {
        const name = (call.body as { name: string }).name;
        folders.push({ value: '00000000-0000-4000-8000-0000000000f1', label: name });
        return ok({ id: '00000000-0000-4000-8000-0000000000f1', name, kind: 'pipeline', parent: 'root' });
      },
    });
    fireEvent.click(within(tree()).getByText('Country A'));
    await screen.findByLabelText('main');
    fireEvent.click(button('Create Folder'));
    const modal = await dialog('Create Folder');
    expect(button('Validate', modal).disabled).toBe(true);
    fireEvent.change(within(modal).getByLabelText('Folder name'), { target: { value: '   ' } });
    expect(button('Validate', modal).disabled).toBe(true);
    fireEvent.click(button('Cancel', modal));
    await waitFor(() => expect(document.querySelector('.ant-modal-wrap:not([style*="display: none"]) .ant-modal')).toBeNull());

    fireEvent.click(button('Create Folder'));
    const again = await dialog('Create Folder');
    const name = within(again).getByLabelText('Folder name') as HTMLInputElement;
    expect(name.value).toBe('');
    fireEvent.change(name, { target: { value: 'Drafts' } });
    fireEvent.click(button('Validate', again));
    await within(tree()).findByText('Drafts');
    expect(server.calls.find((c) => c.method === 'POST' && c.path === '/folders')?.body).toEqual({
      name: 'Drafts',
      kind: 'pipeline',
    });
    expect(screen.getByText('Choose a pipeline to send files.')).toBeDefined();
  });

  it('only logs a folder error: no message shows', async () => {
    const failure = vi.spyOn(console, 'error').mockImplementation(() => {});
    await open({ 'POST /folders': () => envelope(40300, 'You are not allowed to change this folder.', null, 403) });
    fireEvent.click(button('Create Folder'));
    const modal = await dialog('Create Folder');
    fireEvent.change(within(modal).getByLabelText('Folder name'), { target: { value: 'Drafts' } });
    fireEvent.click(button('Validate', modal));
    await waitFor(() => expect(failure).toHaveBeenCalledWith('cannot create folder', expect.any(Error)));
    expect(screen.queryByText('You are not allowed to change this folder.')).toBeNull();
  });
});
