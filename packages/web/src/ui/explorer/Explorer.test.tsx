import '../../../test/dom.ts';
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import type { Tag } from '@gdb/shared/tags/tags.schemas';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { button, confirmation, dialog } from '../../../test/queries.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { Explorer, type ExplorerProps } from './Explorer.tsx';
import { leaf as leafOf, sampleTree } from './explorer-fixtures.ts';

const TAGS: Tag[] = [
  { _id: 't1', name: 'Paris', type: 'project', color: null, isHidden: false, isMetadata: false, metadata: null },
  { _id: 't9', name: 'Lyon', type: 'project', color: null, isHidden: false, isMetadata: false, metadata: null },
];

function show(roles: string[], props: Partial<ExplorerProps> = {}, routes: Record<string, Handler> = {}, tree?: TreeNode[]) {
  const server = signedInAs(roles, {
    'GET /folders/tree': () => ok(tree ?? sampleTree()),
    'GET /tags/list': () => ok(TAGS),
    ...routes,
  });
  const onOpen = vi.fn();
  renderWidget(<Explorer kind="schema" onOpen={onOpen} {...props} />);
  return { server, onOpen };
}

const treeEl = () => screen.getByRole('tree', { name: 'Data model folders' });
const item = (label: string) => {
  const found = [...document.querySelectorAll<HTMLElement>('[role=treeitem]')].find(
    (el) => el.querySelector('.gdb-explorer-label')?.textContent === label,
  );
  if (!found) throw new Error(`No tree item ${label}`);
  return found;
};
const labels = () => [...document.querySelectorAll('.gdb-explorer-label')].map((el) => el.textContent);

async function menuOf(label: string, entry: string) {
  fireEvent.click(within(item(label)).getByRole('button', { name: `Actions for ${label}` }));
  const found = await waitFor(() => {
    const e = [...document.querySelectorAll<HTMLElement>('.ant-dropdown-menu-item')].find((m) => m.textContent === entry);
    expect(e).toBeDefined();
    return e as HTMLElement;
  });
  fireEvent.click(found);
}

const menuEntries = () =>
  [...document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item')].map((m) => m.textContent);

describe('explorer, tree mode', () => {
  it('says it is loading while the tree is empty, then shows every folder open with the ?id item highlighted', async () => {
    let answer: () => void = () => {};
    const wait = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const later = async () => {
      await wait;
      return ok(sampleTree());
    };
    show(['manager'], { selectedId: 'orders-v1' }, { 'GET /folders/tree': later });
    await screen.findByText('Please wait while we are loading this tree ...');
    answer();
    await waitFor(() => expect(labels()).toEqual(['Data models', 'Alpha', 'Orders', 'Beta', 'Gamma', 'Prices', 'Secret']));
    expect(treeEl()).toBeDefined();
    expect(item('Orders').getAttribute('aria-selected')).toBe('true');
    expect(item('Prices').getAttribute('aria-selected')).toBe('false');
    expect(item('Beta').getAttribute('aria-expanded')).toBe('true');
  });

  it("highlights the document of the page address's id when the page names none", async () => {
    window.history.pushState({}, '', '/manage/schemas?id=prices');
    try {
      show(['manager']);
      await waitFor(() => expect(item('Prices').getAttribute('aria-selected')).toBe('true'));
    } finally {
      window.history.pushState({}, '', '/');
    }
  });

  it('filters on the label ignoring case, and the clear button shows everything again', async () => {
    show(['manager']);
    await waitFor(() => expect(labels()).toHaveLength(7));
    const filter = screen.getByPlaceholderText('Filter');
    fireEvent.change(filter, { target: { value: 'GAM' } });
    await waitFor(() => expect(labels()).toEqual(['Data models', 'Beta', 'Gamma']));
    fireEvent.click(document.querySelector('.gdb-explorer-filter .ant-input-clear-icon') as HTMLElement);
    await waitFor(() => expect(labels()).toHaveLength(7));
  });

  it('opens a document on click', async () => {
    const { onOpen } = show(['manager']);
    await waitFor(() => expect(labels()).toHaveLength(7));
    fireEvent.click(within(item('Prices')).getByText('Prices'));
    expect(onOpen).toHaveBeenCalledWith('prices', expect.objectContaining({ label: 'Prices' }));
  });

  it('creates a folder from the menu: Create waits for a name, Enter confirms, and the tree is read again', async () => {
    const { server } = show(
      ['manager'],
      {},
      { 'POST /folders': () => ok({ id: 'n', name: 'New', kind: 'schema', parent: 'beta' }) },
    );
    await waitFor(() => expect(labels()).toHaveLength(7));
    await menuOf('Beta', 'New folder');
    const modal = await dialog('New folder');
    expect(button('Create', modal).disabled).toBe(true);
    const name = within(modal).getByLabelText('Name');
    fireEvent.change(name, { target: { value: '  ' } });
    expect(button('Create', modal).disabled).toBe(true);
    fireEvent.change(name, { target: { value: ' Drafts ' } });
    fireEvent.keyDown(name, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(server.count('POST /folders')).toBe(1));
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Drafts', kind: 'schema', parent: 'beta' });
    await waitFor(() => expect(server.count('GET /folders/tree')).toBe(2));
  });

  it('asks before deleting a folder, then deletes it with what it holds', async () => {
    const { server } = show(['manager'], {}, { 'DELETE /folders': () => ok({ folders: ['beta', 'gamma'], documents: 0 }) });
    await waitFor(() => expect(labels()).toHaveLength(7));
    await menuOf('Beta', 'Delete folder');
    const question = await confirmation();
    expect(question.textContent).toContain('Delete folder Beta ?');
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(server.count('DELETE /folders')).toBe(1));
    expect(server.calls.find((c) => c.method === 'DELETE')?.body).toEqual({
      id: 'beta',
      kind: 'schema',
      withFolders: true,
      withDocuments: true,
    });
  });

  it('renames a folder inline on double-click, Enter saving the new name', async () => {
    const { server } = show(
      ['manager'],
      {},
      { 'POST /folders/rename': () => ok({ id: 'beta', name: 'Bêta', kind: 'schema', parent: 'root' }) },
    );
    await waitFor(() => expect(labels()).toHaveLength(7));
    fireEvent.doubleClick(item('Beta').querySelector('.gdb-explorer-label') as HTMLElement);
    const field = await screen.findByLabelText('New name of Beta');
    fireEvent.change(field, { target: { value: 'Bêta' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    await waitFor(() => expect(server.count('POST /folders/rename')).toBe(1));
    expect(server.calls.find((c) => c.path === '/folders/rename')?.body).toEqual({ id: 'beta', name: 'Bêta' });
  });

  it('gives a manager no menu on a document they may neither write nor version', async () => {
    show(['manager']);
    await waitFor(() => expect(labels()).toHaveLength(7));
    expect(within(item('Secret')).queryByRole('button')).toBeNull();
    expect(within(item('Prices')).queryByRole('button', { name: 'Actions for Prices' })).not.toBeNull();
  });

  it('gives no Rename, Delete or drag on the nodes the server says the caller may not change', async () => {
    const tree = sampleTree();
    const [root] = tree;
    for (const n of root?.children ?? []) if (n.label === 'Beta' || n.label === 'Prices') n.write_access = false;
    show(['manager'], {}, {}, tree);
    await waitFor(() => expect(labels()).toHaveLength(7));
    expect(within(item('Prices')).queryByRole('button', { name: 'Actions for Prices' })).toBeNull();
    expect(within(item('Beta')).queryByRole('button', { name: 'Actions for Beta' })).toBeNull();
    expect(within(item('Gamma')).queryByRole('button', { name: 'Actions for Gamma' })).not.toBeNull();
    expect([item('Prices').getAttribute('draggable'), item('Beta').getAttribute('draggable')]).toEqual(['false', 'false']);
    expect(item('Gamma').getAttribute('draggable')).toBe('true');
  });

  it("deletes a pipeline with its child pipelines after confirming, and says 'Pipeline deleted'", async () => {
    const pipelines: TreeNode[] = [
      {
        ...sampleTree()[0],
        value: 'proot',
        label: 'Pipelines',
        children: [{ ...leafOf('master', 'Sales master'), write_access: true }],
      } as TreeNode,
    ];
    const { server } = show(
      ['manager'],
      { kind: 'pipeline', label: 'Pipeline folders' },
      { 'DELETE /pipelines': () => ok({ _id: 'master', deleted: ['fr', 'master'] }) },
      pipelines,
    );
    await waitFor(() => expect(labels()).toEqual(['Pipelines', 'Sales master']));
    await menuOf('Sales master', 'Delete pipeline');
    const question = await confirmation();
    expect(question.textContent).toContain('Delete pipeline [Sales master] and all its child pipeline ?');
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(server.count('DELETE /pipelines')).toBe(1));
    expect(server.calls.find((c) => c.path === '/pipelines')?.search).toBe('?id=master');
    expect(await screen.findByText('Pipeline deleted')).toBeDefined();
  });

  it('shows admins the badge expressions and lets them set a folder read badges, warned before they lose read, told once saved', async () => {
    const { server } = show(['admin'], {}, { 'POST /tags/update-document-tags': () => ok(null) });
    await waitFor(() => expect(labels()).toHaveLength(7));
    await waitFor(() => expect(within(item('Alpha')).getByText('W: Paris')).toBeDefined());
    fireEvent.click(within(item('Beta')).getByRole('button', { name: 'Actions for Beta' }));
    await waitFor(() => expect(menuEntries()).toEqual(['New folder', 'Manage badges']));
    await menuOf('Beta', 'Manage badges');
    const modal = await dialog('Manage badges of Beta');
    const read = within(modal).getByRole('group', { name: 'Read badges' });
    fireEvent.click(within(read).getByRole('checkbox', { name: 'Paris' }));
    // The admin holds no Paris badge: saving would hide Beta from them, and they are told first.
    fireEvent.click(button('Save', modal));
    const warning = await confirmation();
    expect(warning.textContent).toContain(
      'After this change you can no longer read Beta: you hold none of its read badge groups, so it leaves your tree. Save anyway?',
    );
    fireEvent.click(button('No', warning));
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).toBeNull());
    expect(server.count('POST /tags/update-document-tags')).toBe(0);
    expect(screen.getByRole('dialog', { name: 'Manage badges of Beta' })).toBeDefined();
    await waitFor(() => expect(button('Save', modal).className).not.toContain('ant-btn-loading'));
    fireEvent.click(button('Save', modal));
    const again = await confirmation();
    await act(async () => {
      fireEvent.click(button('Yes', again));
    });
    await waitFor(() => expect(server.count('POST /tags/update-document-tags')).toBe(1));
    expect(await screen.findByText('Badges of Beta saved')).toBeDefined();
    expect(server.calls.find((c) => c.path === '/tags/update-document-tags')?.body).toEqual({
      id: 'beta',
      tags: { read: [['t1']], write: [] },
      metadataTags: [],
      type: 'folder',
    });
  });

  it('does not warn when the new read badges still let the admin read the folder', async () => {
    const { server } = show(['admin'], {}, { 'POST /tags/update-document-tags': () => ok(null) });
    await waitFor(() => expect(labels()).toHaveLength(7));
    await menuOf('Beta', 'Manage badges');
    const modal = await dialog('Manage badges of Beta');
    const write = within(modal).getByRole('group', { name: 'Write badges' });
    fireEvent.click(within(write).getByRole('checkbox', { name: 'Lyon' }));
    await act(async () => {
      fireEvent.click(button('Save', modal));
    });
    await waitFor(() => expect(server.count('POST /tags/update-document-tags')).toBe(1));
    expect(document.querySelector('.ant-modal-confirm')).toBeNull();
    expect(await screen.findByText('Badges of Beta saved')).toBeDefined();
  });
});

describe('explorer, keyboard and drag and drop', () => {
  const active = () => {
    const id = treeEl().getAttribute('aria-activedescendant');
    return id ? document.getElementById(id)?.querySelector('.gdb-explorer-label')?.textContent : undefined;
  };
  const key = (k: string, extra: Record<string, unknown> = {}) => fireEvent.keyDown(treeEl(), { key: k, ...extra });

  it('moves with the arrows, closes and opens folders, opens a document with Enter, and renames with F2', async () => {
    const { onOpen } = show(['manager']);
    await waitFor(() => expect(labels()).toHaveLength(7));
    expect(treeEl().tabIndex).toBe(0);
    fireEvent.focus(treeEl());
    await waitFor(() => expect(active()).toBe('Data models'));
    key('ArrowDown');
    key('ArrowDown');
    key('ArrowDown');
    await waitFor(() => expect(active()).toBe('Beta'));
    key('ArrowLeft');
    await waitFor(() => expect(item('Beta').getAttribute('aria-expanded')).toBe('false'));
    expect(labels()).not.toContain('Gamma');
    key('ArrowRight');
    await waitFor(() => expect(labels()).toContain('Gamma'));
    key('End');
    await waitFor(() => expect(active()).toBe('Secret'));
    key('ArrowUp');
    key('Enter');
    expect(onOpen).toHaveBeenCalledWith('prices', expect.objectContaining({ label: 'Prices' }));
    key('Home');
    key('ArrowDown');
    key('ArrowDown');
    key('ArrowDown');
    await waitFor(() => expect(active()).toBe('Beta'));
    key('F2');
    expect(await screen.findByLabelText('New name of Beta')).toBeDefined();
  });

  it('opens the node menu with Shift+F10 and asks before deleting with the Delete key', async () => {
    show(['manager']);
    await waitFor(() => expect(labels()).toHaveLength(7));
    fireEvent.focus(treeEl());
    key('End');
    key('ArrowUp');
    await waitFor(() => expect(active()).toBe('Prices'));
    key('F10', { shiftKey: true });
    await waitFor(() => expect(menuEntries()).toEqual(['Delete schema', 'Move down']));
    key('Delete');
    expect((await confirmation()).textContent).toContain('Delete schema [Prices] ?');
  });

  const dataTransfer = () => ({ setData: () => {}, getData: () => '', effectAllowed: '', dropEffect: '' });

  it('moves a document dropped inside a folder, and refuses a drop inside a folder the badges close', async () => {
    const { server } = show(['manager'], {}, { 'POST /schemas/reparent': () => ok({ _id: 'prices', folder: 'gamma' }) });
    await waitFor(() => expect(labels()).toHaveLength(7));
    const prices = item('Prices');
    expect(prices.getAttribute('draggable')).toBe('true');
    expect(item('Secret').getAttribute('draggable')).toBe('false');
    expect(item('Data models').getAttribute('draggable')).toBe('false');

    fireEvent.dragStart(prices, { dataTransfer: dataTransfer() });
    // The middle of a row (rows are 28 px high) is inside it.
    const refused = fireEvent.dragOver(item('Alpha'), { clientY: 14, dataTransfer: dataTransfer() });
    expect(refused).toBe(true);
    const accepted = fireEvent.dragOver(item('Gamma'), { clientY: 14, dataTransfer: dataTransfer() });
    expect(accepted).toBe(false);
    fireEvent.drop(item('Gamma'), { clientY: 14, dataTransfer: dataTransfer() });
    await waitFor(() => expect(server.count('POST /schemas/reparent')).toBe(1));
    expect(server.calls.find((c) => c.path === '/schemas/reparent')?.body).toEqual({ id: 'prices', parentId: 'gamma' });
  });

  it("moves a folder dropped before a row into that row's folder", async () => {
    const { server } = show(
      ['manager'],
      {},
      { 'POST /folders/reparent': () => ok({ id: 'gamma', name: 'Gamma', kind: 'schema', parent: 'root' }) },
    );
    await waitFor(() => expect(labels()).toHaveLength(7));
    fireEvent.dragStart(item('Gamma'), { dataTransfer: dataTransfer() });
    fireEvent.dragOver(item('Prices'), { clientY: 2, dataTransfer: dataTransfer() });
    fireEvent.drop(item('Prices'), { clientY: 2, dataTransfer: dataTransfer() });
    await waitFor(() => expect(server.count('POST /folders/reparent')).toBe(1));
    expect(server.calls.find((c) => c.path === '/folders/reparent')?.body).toEqual({ id: 'gamma', parentId: 'root' });
  });
});

describe('explorer, other tabs', () => {
  it("reads the tree again when another tab says the kind's tree changed, not for another kind", async () => {
    const { server } = show(['manager']);
    await waitFor(() => expect(labels()).toHaveLength(7));
    const otherTab = new BroadcastChannel('gdb-folder-trees');
    otherTab.postMessage({ kind: 'pipeline' });
    otherTab.postMessage({ kind: 'schema' });
    otherTab.close();
    await waitFor(() => expect(server.count('GET /folders/tree')).toBe(2));
    await new Promise((r) => setTimeout(r, 200));
    expect(server.count('GET /folders/tree')).toBe(2);
  });
});

describe('explorer, a failed read', () => {
  it("says 'error while fetching folder tree' once when the tree comes back empty-handed", async () => {
    show(['manager'], {}, { 'GET /folders/tree': () => ok(null) });
    await screen.findByText('error while fetching folder tree');
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getAllByText('error while fetching folder tree')).toHaveLength(1);
    expect(screen.getByText('Please wait while we are loading this tree ...')).toBeDefined();
  });
});

describe('explorer, cascader mode', () => {
  it("is a 'Select a {kind}' select showing only the last level of the chosen document", async () => {
    show(['manager'], { mode: 'cascader', selectedId: 'orders' });
    await waitFor(() => expect(document.querySelector('.ant-select-content')?.textContent).toBe('Orders'));
  });

  it('says Select a schema when nothing is chosen', async () => {
    show(['manager'], { mode: 'cascader' });
    await screen.findByText('Select a schema');
  });
});
