import '../../../test/dom.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, type Recorded, signedInAs } from '../../../test/fake-api.ts';
import { button, confirmation, queryButton } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { IDS, PIPELINES, TAGS, usersFor } from '../../../test/users-fixtures.ts';

function asRoles(roles: string[], extra: Record<string, (call: Recorded) => Response> = {}) {
  return signedInAs(roles, {
    'GET /users': () => ok(usersFor(roles)),
    'GET /tags/list': () => ok(TAGS),
    'GET /users/pipelinesFor': () => ok(PIPELINES),
    ...extra,
  });
}

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const rowTexts = () =>
  [...document.querySelectorAll('.ant-table-tbody tr.gdb-users-row')].map((tr) => tr.querySelectorAll('td')[3]?.textContent);
const confirmDialog = confirmation;

async function openPage(roles: string[], extra: Record<string, (call: Recorded) => Response> = {}) {
  const server = asRoles(roles, extra);
  renderApp('/manage/users');
  await screen.findByText('Manage User');
  await screen.findByText('bob@dealers.test');
  return server;
}

describe('Users screen', () => {
  it('lists the users and searches names, email and role names ignoring case', async () => {
    await openPage(['super-admin']);
    expect(rowTexts()).toEqual(['ada.lovelace', 'bob.builder', 'carol.jones', 'dan.brown']);
    expect(document.querySelector('.ant-table-body')?.getAttribute('style')).toContain('max-height: 550px');
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'MANAGER' } });
    expect(rowTexts()).toEqual(['dan.brown']);
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'dealers.TEST' } });
    expect(rowTexts()).toEqual(['bob.builder']);
  });

  it("offers 'Manage global badge list' to a super-admin only", async () => {
    await openPage(['super-admin']);
    expect(queryButton('Manage global badge list')).toBeDefined();
  });

  it("hides 'Manage global badge list' from an admin", async () => {
    await openPage(['admin']);
    expect(queryButton('Manage global badge list')).toBeUndefined();
    expect(queryButton('Create User')).toBeDefined();
  });

  it('toggles one row at once, without opening the dialog', async () => {
    const server = await openPage(['super-admin'], { 'POST /users/toggle': () => ok({ ids: [IDS.bob] }) });
    fireEvent.click(screen.getByLabelText('Active: bob.builder'));
    await screen.findByText('Activation for the selected users has been successfully turned on.');
    expect(server.calls.find((c) => c.path === '/users/toggle')?.body).toEqual({ ids: [IDS.bob], enabled: true });
    expect(document.querySelector('.ant-modal')).toBeNull();
  });

  it('shows the bulk buttons past one selected row; No clears the selection, Yes de-activates them', async () => {
    const server = await openPage(['super-admin'], { 'POST /users/toggle': () => ok({ ids: [IDS.bob, IDS.dan] }) });
    const select = (text: string) => fireEvent.click(row(text).querySelector('input[type=checkbox]') as HTMLElement);
    select('bob@dealers.test');
    expect(queryButton('De-Active')).toBeUndefined();
    select('dan@example.test');
    expect(queryButton('Delete')).toBeDefined();
    expect(queryButton('Active')).toBeDefined();

    fireEvent.click(button('De-Active'));
    const first = await confirmDialog();
    expect(within(first).getByText('Do you want to de-activate all the users?')).toBeTruthy();
    fireEvent.click(button('No', first));
    await waitFor(() => expect(queryButton('De-Active')).toBeUndefined());
    expect(server.count('POST /users/toggle')).toBe(0);

    select('bob@dealers.test');
    select('dan@example.test');
    fireEvent.click(button('De-Active'));
    fireEvent.click(button('Yes', await confirmDialog()));
    await screen.findByText('De-activation for the selected users has been successfully turned off.');
    expect(server.calls.find((c) => c.path === '/users/toggle')?.body).toEqual({ ids: [IDS.bob, IDS.dan], enabled: false });
  });

  it('deletes the selected users after the confirmation', async () => {
    const server = await openPage(['super-admin'], { 'DELETE /users': () => ok({ ids: [IDS.bob, IDS.carol] }) });
    fireEvent.click(row('bob@dealers.test').querySelector('input[type=checkbox]') as HTMLElement);
    fireEvent.click(row('carol@example.test').querySelector('input[type=checkbox]') as HTMLElement);
    fireEvent.click(button('Delete'));
    const dialog = await confirmDialog();
    expect(within(dialog).getByText('Do you want to delete all the users?')).toBeTruthy();
    fireEvent.click(button('Yes', dialog));
    await screen.findByText('Selected users deleted successfully.');
    const call = server.calls.find((c) => c.method === 'DELETE');
    expect(new URLSearchParams(call?.search).get('ids')).toBe(`${IDS.bob},${IDS.carol}`);
  });

  it("shows the server's message when the list cannot be loaded", async () => {
    signedInAs(['admin'], {
      'GET /users': () =>
        new Response(JSON.stringify({ code: 40300, message: 'Forbidden.', data: null }), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        }),
      'GET /tags/list': () => ok(TAGS),
    });
    renderApp('/manage/users');
    await screen.findByText('Forbidden.', {}, { timeout: 20_000 });
  });

  it('opens an existing user from the keyboard and gives the focus back when the dialog closes', async () => {
    await openPage(['super-admin']);
    const opener = screen.getByRole('button', { name: 'Open user bob.builder' });
    opener.focus();
    fireEvent.click(opener);
    const modal = await screen.findByRole('dialog');
    await waitFor(() => expect(within(modal).getByText('Update user')).toBeDefined());
    fireEvent.click(within(modal).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open user bob.builder' })));
  });

  it('leaves nothing focusable under aria-hidden', async () => {
    await openPage(['super-admin']);
    const hidden = [...document.querySelectorAll('[aria-hidden="true"], [inert]')].filter(
      (h) => !h.closest('[inert]') || h.hasAttribute('inert'),
    );
    const focusable = hidden.flatMap((h) =>
      [...h.querySelectorAll<HTMLElement>('input, button, a[href], [tabindex]')].filter((el) => el.tabIndex >= 0),
    );
    expect(focusable.map((el) => el.outerHTML)).toEqual([]);
  });
});
