import '../../../test/dom.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, ok, signedInAs } from '../../../test/fake-api.ts';
import { button, confirmation } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { versionedFields } from '../../../test/versions-fixtures.ts';

const ID = '00000000-0000-4000-8000-000000000001';

function doc(over: Record<string, unknown> = {}) {
  return {
    ...versionedFields(ID, 'Dealer'),
    jsonSchema: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
    ...over,
  };
}

const LIST = [{ _id: ID, familyId: ID, name: 'Dealer', version: 1, vLocked: false, folder: null }];
const OPEN = { read: [], write: [] };
const TREE = [
  {
    value: 'root',
    label: 'Data models',
    type: 'folder',
    versions: [],
    tags: OPEN,
    metadataTags: [],
    children: [
      {
        value: ID,
        label: 'Dealer',
        type: 'leaf',
        children: [],
        versions: [{ _id: ID, version: 1, vLocked: false }],
        tags: OPEN,
        metadataTags: [],
      },
    ],
  },
];

async function openDealer(over: Record<string, unknown> = {}, routes: Parameters<typeof signedInAs>[1] = {}) {
  const server = signedInAs(['manager'], {
    'GET /schemas/list': () => ok(LIST),
    'GET /folders/tree': () => ok(TREE),
    'GET /schemas/find': () => ok(doc(over)),
    ...routes,
  });
  const app = renderApp(`/manage/schemas?id=${ID}`);
  await screen.findByText('Dealer (v.1 - Draft)'.replace('Draft', over.vLocked ? 'Prod' : 'Draft'), { exact: false });
  await screen.findByText('code');
  return { server, app };
}

const inspectorName = () => screen.getByLabelText('Name') as HTMLInputElement;

describe('Data Models page', () => {
  it('opens the data model of the address, renames a property, undoes and redoes, and saves after asking', async () => {
    const { server } = await openDealer(
      {},
      { 'POST /schemas': (call) => ok({ ...doc(), ...(call.body as object), sys_version: 4 }) },
    );
    fireEvent.click(screen.getByText('code'));
    await waitFor(() => expect(inspectorName().value).toBe('code'));
    fireEvent.change(inspectorName(), { target: { value: 'dealerCode' } });
    fireEvent.keyDown(inspectorName(), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await screen.findByText('dealerCode');
    fireEvent.click(button('Undo'));
    await screen.findByText('code');
    fireEvent.click(button('Redo'));
    await screen.findByText('dealerCode');

    fireEvent.click(button('Save'));
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to save schema Dealer ?');
    fireEvent.click(button('Yes', question));
    await screen.findByText('Schema saved');
    expect(server.calls.find((c) => c.method === 'POST' && c.path === '/schemas')?.body).toEqual({
      _id: ID,
      name: 'Dealer',
      folder: null,
      version: 1,
      sys_version: 3,
      jsonSchema: { type: 'object', required: ['dealerCode'], properties: { dealerCode: { type: 'string' } } },
    });
  });

  it('shows a locked version read-only: no save, no edits', async () => {
    await openDealer({ vLocked: true });
    expect(button('Save').disabled).toBe(true);
    fireEvent.click(screen.getByText('code'));
    await waitFor(() => expect(button('Remove').disabled).toBe(true));
    expect(button('Rename').disabled).toBe(true);
    expect(inspectorName().disabled).toBe(true);
  });

  it("says 'Cannot load schema {id} from server' for an unknown version", async () => {
    const missing = '00000000-0000-4000-8000-000000000009';
    signedInAs(['manager'], {
      'GET /schemas/list': () => ok(LIST),
      'GET /folders/tree': () => ok(TREE),
      'GET /schemas/find': () => envelope(40400, `Cannot load schema ${missing} from server`, null, 404),
    });
    renderApp(`/manage/schemas?id=${missing}`);
    expect((await screen.findAllByText(`Cannot load schema ${missing} from server`)).length).toBeGreaterThan(0);
  });

  it('asks before a new schema drops unsaved changes, and tells when the clipboard refuses the copy', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: () => Promise.reject(new Error('denied')) } });
    await openDealer();
    fireEvent.click(button('Copy'));
    await screen.findByText('Unable copy json schema to clipboard, please press Ctrl/Cmd+C to copy.');
    fireEvent.click(screen.getByText('code'));
    await waitFor(() => expect(inspectorName().value).toBe('code'));
    fireEvent.click(button('Remove'));
    await waitFor(() => expect(screen.queryByText('code')).toBeNull());
    fireEvent.click(button('New schema'));
    const question = await confirmation();
    expect(question.textContent).toContain('Current schema would be lost, are you sure?');
  });

  it('does not ask before dropping an empty new data model, and asks once it has a field', async () => {
    await openDealer();
    fireEvent.click(button('New schema'));
    const name = async () => {
      const dialog = await screen.findByRole('dialog', { name: 'New schema' });
      fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Empty' } });
      fireEvent.click(button('OK', dialog));
      await screen.findByText('New schema Empty, not saved yet');
    };
    await name();
    fireEvent.click(button('New schema'));
    await name();
    expect(screen.queryByText('Current schema would be lost, are you sure?')).toBeNull();
    fireEvent.click(button('Edit json'));
    const editJson = await screen.findByRole('dialog', { name: 'Edit json' });
    const field = within(editJson).getByRole('textbox', { name: 'JSON schema' });
    fireEvent.change(field, { target: { value: '{"type":"object","properties":{"city":{"type":"string"}}}' } });
    fireEvent.click(button('Save', editJson));
    await screen.findByText('city');
    fireEvent.click(button('New schema'));
    expect((await confirmation()).textContent).toContain('Current schema would be lost, are you sure?');
  });

  it('generates the data model from an example file, and says why when the file is refused', async () => {
    let refuse = true;
    const { server } = await openDealer(
      {},
      {
        'POST /schemas/generate': () =>
          refuse
            ? envelope(42200, 'Generate schema from file error: the file has no rows.', null, 422)
            : ok([{ type: 'object', properties: { city: { type: 'string' } } }]),
      },
    );
    const pick = async () => {
      fireEvent.click(button('Import example'));
      const input = await waitFor(() => {
        const found = document.querySelector<HTMLInputElement>('input[type=file][accept=".xlsx,.xls,.xml,.csv,.json"]');
        expect(found).not.toBeNull();
        return found as HTMLInputElement;
      });
      fireEvent.change(input, { target: { files: [new File(['city\nLyon'], 'dealers.csv', { type: 'text/csv' })] } });
      fireEvent.click(button('Generate'));
    };
    await pick();
    await screen.findByText('Generate schema from file error: the file has no rows.');
    refuse = false;
    fireEvent.click(button('Generate'));
    await screen.findByText('city');
    expect(screen.queryByText('code')).toBeNull();
    expect(server.count('POST /schemas/generate')).toBe(2);
  });

  it('moves the selection with the arrow keys and opens the node menu with Shift+F10', async () => {
    await openDealer();
    const tree = document.querySelector('[role=tree][aria-label="Schema tree"]') as HTMLElement;
    fireEvent.click(screen.getByText('code'));
    fireEvent.keyDown(tree, { key: 'ArrowUp' });
    await waitFor(() =>
      expect(document.querySelector('[aria-selected="true"] .gdb-schema-node-name')?.textContent).toBe('properties'),
    );
    const active = tree.getAttribute('aria-activedescendant') ?? '';
    expect(document.getElementById(active)?.textContent).toContain('properties');
    fireEvent.keyDown(tree, { key: 'F10', shiftKey: true });
    const menu = await waitFor(() => {
      const found = document.querySelector('.ant-dropdown-menu');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    expect(menu.textContent).toContain('Select Referenced Schema');
    expect(menu.textContent).toContain('Move Up');
  });
});
