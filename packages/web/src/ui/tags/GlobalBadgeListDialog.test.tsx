import '../../../test/dom.ts';
import type { Tag } from '@gdb/shared/tags/tags.schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { envelope, fakeApi, ok, type Recorded, signIn } from '../../../test/fake-api.ts';
import { GlobalBadgeListDialog } from './GlobalBadgeListDialog.tsx';

const A = '00000000-0000-4000-8000-0000000000a1';
const B = '00000000-0000-4000-8000-0000000000b1';
const C = '00000000-0000-4000-8000-0000000000b2';
const TAGS: Tag[] = [
  { _id: B, name: 'beta', type: 'project', color: '#00ff00', isHidden: false, isMetadata: false, metadata: null },
  { _id: A, name: 'Paris', type: 'group', color: null, isHidden: false, isMetadata: false, metadata: null },
  { _id: C, name: 'Archive', type: 'project', color: null, isHidden: true, isMetadata: false, metadata: null },
];

function show(routes: Record<string, (call: Recorded) => Response> = {}) {
  signIn();
  const server = fakeApi({ 'GET /tags/list': () => ok(TAGS), ...routes });
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AntApp>
        <GlobalBadgeListDialog open onClose={onClose} />
      </AntApp>
    </QueryClientProvider>,
  );
  return { server, onClose };
}

const names = () => [...document.querySelectorAll('.ant-table-tbody .gdb-badge-chip')].map((el) => el.textContent);
const buttonNamed = (name: string) =>
  [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === name) as HTMLButtonElement;

describe('global badge list', () => {
  it("is titled 'Manage global badge list' and lists every badge by name, hidden ones included", async () => {
    show();
    await screen.findByText('Manage global badge list');
    await waitFor(() => expect(names()).toEqual(['Archive', 'beta', 'Paris']));
  });

  it('creates a project badge with its colour, and refuses an empty name', async () => {
    const { server } = show({ 'POST /tags': () => ok({ ...TAGS[0], _id: C, name: 'gamma' }) });
    await waitFor(() => expect(names()).toHaveLength(3));
    fireEvent.click(buttonNamed('Create'));
    await screen.findByText('Please input the badge name');
    expect(server.count('POST /tags')).toBe(0);

    fireEvent.change(screen.getByLabelText('Badge name'), { target: { value: ' gamma ' } });
    fireEvent.change(screen.getByLabelText('Badge colour'), { target: { value: '#123456' } });
    fireEvent.click(buttonNamed('Create'));
    await screen.findByText('The badge has been saved.');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'gamma',
      type: 'project',
      color: '#123456',
      isHidden: false,
      isMetadata: false,
      metadata: null,
    });
  });

  it('edits a badge picked in the list by a button the keyboard reaches, keeping its type', async () => {
    const { server } = show({ 'POST /tags': () => ok(TAGS[1]) });
    const pick = await screen.findByRole('button', { name: 'Edit badge Paris' });
    expect(pick.tabIndex).toBe(0);
    fireEvent.click(pick);
    expect((screen.getByLabelText('Badge name') as HTMLInputElement).value).toBe('Paris');
    await waitFor(() => expect(screen.queryByLabelText('Badge colour')).toBeNull());
    fireEvent.change(screen.getByLabelText('Badge name'), { target: { value: 'Paris-Nord' } });
    fireEvent.click(buttonNamed('Update'));
    await screen.findByText('The badge has been saved.');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      _id: A,
      name: 'Paris-Nord',
      type: 'group',
      color: null,
    });
  });

  it('deletes the selected badges after the confirmation, and shows a refusal', async () => {
    let answer = envelope(40900, 'The badge is still in use.', null, 409);
    const { server } = show({ 'DELETE /tags': () => answer });
    await waitFor(() => expect(names()).toHaveLength(3));
    const rows = document.querySelectorAll('.ant-table-tbody tr.ant-table-row');
    fireEvent.click(rows[0]?.querySelector('input[type=checkbox]') as HTMLElement);
    fireEvent.click(rows[1]?.querySelector('input[type=checkbox]') as HTMLElement);
    fireEvent.click(buttonNamed('Delete'));
    await screen.findByText('Do you want to delete the selected badges?');
    fireEvent.click(buttonNamed('Yes'));
    await screen.findByText('The badge is still in use.');

    answer = ok({ ids: [C, B] });
    fireEvent.click(buttonNamed('Delete'));
    await waitFor(() => expect(document.querySelectorAll('.ant-modal-confirm').length).toBeGreaterThan(0));
    fireEvent.click(
      [...document.querySelectorAll('.ant-modal-confirm button')].find((b) => b.textContent === 'Yes') as HTMLElement,
    );
    await screen.findByText('The selected badges have been deleted.');
    const call = server.calls.filter((c) => c.method === 'DELETE').at(-1);
    expect(new URLSearchParams(call?.search).get('ids')?.split(',').sort()).toEqual([B, C]);
  });
});
