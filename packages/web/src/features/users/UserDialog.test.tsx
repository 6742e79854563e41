import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, ok, type Recorded, signedInAs } from '../../../test/fake-api.ts';
import { button, confirmation, dialog, queryButton } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { IDS, managedUser, PIPELINES, TAGS, usersFor } from '../../../test/users-fixtures.ts';

type Routes = Record<string, (call: Recorded) => Response>;

async function openDialog(roles: string[], which: 'create' | string, extra: Routes = {}) {
  const server = signedInAs(roles, {
    'GET /users': () => ok(usersFor(roles)),
    'GET /tags/list': () => ok(TAGS),
    'GET /users/pipelinesFor': () => ok(PIPELINES),
    ...extra,
  });
  renderApp('/manage/users');
  await screen.findByText('bob@dealers.test');
  if (which === 'create') fireEvent.click(button('Create User'));
  else fireEvent.click(screen.getByText(which));
  const modal = await dialog(which === 'create' ? 'Create user' : 'Update user');
  return { server, modal };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

/** Opens the roles list once and picks each role named. */
async function pickRoles(...labels: string[]) {
  if (!document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')) fireEvent.mouseDown(field('Roles'));
  for (const label of labels) {
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.title === label);
      expect(found).toBeDefined();
      return found as HTMLElement;
    });
    fireEvent.click(option);
  }
}

const roleOptions = async () => {
  fireEvent.mouseDown(field('Roles'));
  await waitFor(() => expect(document.querySelector('.ant-select-item-option')).not.toBeNull());
  return [...document.querySelectorAll<HTMLElement>('.ant-select-item-option:not(.ant-select-item-option-disabled)')].map(
    (o) => o.title,
  );
};

const lastBody = (server: { calls: Recorded[] }, path: string) =>
  server.calls.filter((c) => c.method === 'POST' && c.path === path).at(-1)?.body;

describe('user dialog: create', () => {
  it('derives the user name from the names, then checks the role rules in order before the fields', async () => {
    const { server } = await openDialog(['super-admin'], 'create');
    type('First name', ' Jean Paul ');
    type('Last name', 'Sartre');
    expect(field('User name').value).toBe('jean-paul.sartre');
    expect(field('User name').readOnly).toBe(true);

    fireEvent.click(button('Confirm'));
    await screen.findByText('You must select at least a role');
    await pickRoles('User', 'Manager');
    fireEvent.click(button('Confirm'));
    await screen.findByText('The only available combination of two roles is Admin & Manager');
    await pickRoles('Admin');
    fireEvent.click(button('Confirm'));
    await screen.findByText('A user cannot have more than 2 roles');
    expect(server.count('POST /users')).toBe(0);
  });

  it("shows the field rules' words and sends nothing while one fails", async () => {
    const { server } = await openDialog(['super-admin'], 'create');
    await pickRoles('Manager');
    type('First name', 'Jo');
    type('Email', 'not-an-address');
    fireEvent.click(button('Confirm'));
    await screen.findByText('Length should be 3 to 25');
    await screen.findByText('Please input last name');
    await screen.findByText('Please input correct email address');
    expect(server.count('POST /users')).toBe(0);
  });

  it('offers an admin only User and Manager and asks for one of its admin badges', async () => {
    const { server } = await openDialog(['admin'], 'create');
    expect(await roleOptions()).toEqual(['User', 'Manager']);
    type('First name', 'Grace');
    type('Last name', 'Hopper');
    type('Email', 'grace@example.test');
    await pickRoles('User');
    fireEvent.click(button('Confirm'));
    await screen.findByText('User must have at least one of your admin badges');
    expect(server.count('POST /users')).toBe(0);
  });

  it("shows 'Only dealers upload' and the pipelines for the role user only, and sends the assignment", async () => {
    const { server } = await openDialog(['super-admin'], 'create', {
      'POST /users': () =>
        ok({
          ...managedUser({ _id: IDS.dan, firstName: 'Grace', lastName: 'Hopper' }),
          passwordMail: { to: 'grace@example.test', written: true },
        }),
    });
    type('First name', 'Grace');
    type('Last name', 'Hopper');
    type('Email', 'grace@example.test');
    await pickRoles('User');
    expect((await screen.findByLabelText('Only dealers upload')).getAttribute('aria-checked')).toBe('true');
    await screen.findByText('Dealers FR (v.2)');
    // Every checkbox of the transfer has a name: each pipeline's line, each list's select-all.
    const boxes = [...document.querySelectorAll('.gdb-pipeline-transfer input[type=checkbox]')];
    expect(boxes.length).toBeGreaterThan(2);
    for (const box of boxes) expect(box.getAttribute('aria-label')).toBeTruthy();
    expect(screen.getByLabelText('Select Dealers FR (v.2)')).toBeDefined();
    expect(screen.getByLabelText('Select all: All pipelines')).toBeDefined();
    fireEvent.click(screen.getByText('Dealers FR (v.2)'));
    fireEvent.click(document.querySelector('.ant-transfer-actions button:not([disabled])') as HTMLElement);
    fireEvent.click(await screen.findByLabelText('Active: Dealers FR (v.2)'));
    fireEvent.click(field('Only dealers upload'));
    fireEvent.click(button('Confirm'));
    // Where the password link went: no mail server here, so the server's outbox.
    await screen.findByText(
      "The new user has been created successfully. No mail server is set: the mail with the link to set a password, for grace@example.test, was written to the server's outbox folder.",
    );
    expect(lastBody(server, '/users')).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      userName: 'grace.hopper',
      email: 'grace@example.test',
      service: '',
      roles: ['user'],
      isActive: true,
      isNoCode: false,
      unrestrictedUpload: true,
      admin_tags: [],
      project_tags: [],
      pipelinePermissions: { [IDS.pipeA]: { isActive: false } },
    });
    expect(server.calls.find((c) => c.path === '/users/pipelinesFor')?.search).toBe(`?id=${IDS.me}`);
  });

  it("hides 'Only dealers upload' and the pipelines for a manager", async () => {
    await openDialog(['super-admin'], 'create');
    await pickRoles('Manager');
    await waitFor(
      () => {
        expect(screen.queryByLabelText('Only dealers upload')).toBeNull();
        expect(screen.queryByText('All pipelines')).toBeNull();
      },
      { timeout: 5000 },
    );
  });
});

describe('user dialog: update', () => {
  it("prefixes the server's refusal with 'From server : '", async () => {
    await openDialog(['super-admin'], 'bob@dealers.test', {
      'POST /users': () => envelope(40900, 'A user with this email address already exists.', null, 409),
    });
    fireEvent.click(button('Confirm'));
    await screen.findByText('From server : A user with this email address already exists.');
  });

  it('sends the edited user with its badges and assignments, and says it is updated', async () => {
    const { server } = await openDialog(['super-admin'], 'bob@dealers.test', {
      'POST /users': () => ok(usersFor(['super-admin'])[1]),
    });
    expect(field('User name').value).toBe('bob.builder');
    type('First name', 'Robert');
    expect(field('User name').value).toBe('bob.builder');
    fireEvent.click(button('Confirm'));
    await screen.findByText('The user data has been updated successfully.');
    expect(lastBody(server, '/users')).toMatchObject({
      _id: IDS.bob,
      firstName: 'Robert',
      userName: 'bob.builder',
      roles: ['user'],
      isActive: false,
      unrestrictedUpload: false,
      admin_tags: [IDS.paris],
      project_tags: [IDS.alpha],
      pipelinePermissions: { [IDS.pipeA]: { isActive: true } },
    });
  });

  it('edits the badges in the tags dialog, asks before losing changes, then says to save and re-open', async () => {
    const { server } = await openDialog(['super-admin'], 'bob@dealers.test', {
      'POST /users': () => ok(usersFor(['super-admin'])[1]),
    });
    fireEvent.click(button('Manage user tags'));
    const tags = await dialog('Manage user tags');
    expect(tags.querySelector('.gdb-tag-selector-box')?.getAttribute('style')).toContain('max-height: 220px');
    expect(tags.textContent).not.toContain('Secret');
    fireEvent.click(screen.getByLabelText('lyon', { selector: 'input' }));
    fireEvent.click(button('Cancel', tags));
    const ask = await confirmation();
    expect(ask.textContent).toContain('Do you want to save the current modifications?');
    fireEvent.click(button('Yes', ask));
    await screen.findByText('To see changes reflected in the pipeline list, please save the user and re-open this dialog');
    fireEvent.click(button('Confirm'));
    await screen.findByText('The user data has been updated successfully.');
    expect(lastBody(server, '/users')).toMatchObject({ admin_tags: [IDS.paris, IDS.lyon], project_tags: [IDS.alpha] });
  });

  it('resets the password and the two-factor, and deletes after the confirmation', async () => {
    const { server } = await openDialog(['super-admin'], 'bob@dealers.test', {
      'POST /users/reset-password': () => ok(null),
      'POST /users/reset-tfa': () => ok(null),
      'DELETE /users': () => ok({ ids: [IDS.bob] }),
    });
    fireEvent.click(button('Reset password'));
    await screen.findByText('Password reset successful for the user.');
    fireEvent.click(button('Reset TFA'));
    await screen.findByText('ResetTFA successful for the user.');
    expect(lastBody(server, '/users/reset-password')).toEqual({ _id: IDS.bob });
    expect(lastBody(server, '/users/reset-tfa')).toEqual({ _id: IDS.bob });

    fireEvent.click(button('Delete'));
    const ask = await confirmation();
    expect(ask.textContent).toContain('Do you want to delete this user?');
    fireEvent.click(button('Yes', ask));
    await screen.findByText('User deleted successfully');
    expect(new URLSearchParams(server.calls.find((c) => c.method === 'DELETE')?.search).get('ids')).toBe(IDS.bob);
    await waitFor(() => expect(queryButton('Reset password')).toBeUndefined());
  });
});
