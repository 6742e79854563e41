import '../../../test/dom.ts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { resizeWindow } from '../../../test/dom.ts';
import { envelope, ok, signedInAs } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { TOKEN_KEYS } from '../../ground/request/token-store.ts';
import { UpcomingPage } from '../pages/UpcomingPage.tsx';

function asRoles(roles: string[], extra: Record<string, () => Response> = {}) {
  return signedInAs(roles, extra, { firstName: 'Grace', lastName: 'Hopper' });
}

const sidebar = () => screen.getByLabelText('Sidebar');
const menuTexts = () => [...sidebar().querySelectorAll('.ant-menu-root > li')].map((li) => li.textContent?.trim() ?? '');

describe('navbar', () => {
  it('shows the first and last name with the role in brackets', async () => {
    asRoles(['admin', 'manager']);
    renderApp('/manage/users');
    await screen.findByText('Grace Hopper (admin,manager)');
  });

  it('builds the breadcrumb from the route titles', async () => {
    asRoles(['super-admin']);
    const app = renderApp('/manage/users');
    await app.opened('/manage/users');
    const crumbs = document.querySelector('.gdb-breadcrumb');
    expect(crumbs?.textContent).toBe('Manage/Users');
    expect(
      within(crumbs as HTMLElement)
        .getByRole('link', { name: 'Manage' })
        .getAttribute('href'),
    ).toBe('/manage');
  });

  it('Log Out ends the session on the server, clears the tokens and goes to /login with a redirect back', async () => {
    const server = asRoles(['super-admin'], { 'POST /users/logout': () => ok(null) });
    const app = renderApp('/unauthorized/index?tab=2');
    fireEvent.click(await screen.findByText('Grace Hopper (super-admin)'));
    fireEvent.click(await screen.findByText('Log Out'));
    await waitFor(() => expect(server.count('POST /users/logout')).toBe(1));
    await app.opened('/login?redirect=/unauthorized/index%3Ftab%3D2');
    await screen.findByRole('button', { name: 'Login' });
    expect(server.count('POST /users/logout')).toBe(1);
    expect(server.calls.find((c) => c.path === '/users/logout')?.headers['x-token']).toBe('access-1');
    for (const key of Object.values(TOKEN_KEYS)) expect(localStorage.getItem(key)).toBeNull();
    expect(server.count('GET /users/info')).toBe(1);
  });

  it('Log Out keeps the session when the server refuses, and says why', async () => {
    asRoles(['super-admin'], { 'POST /users/logout': () => envelope(50000, 'Internal server error', null, 500) });
    const app = renderApp('/manage/users');
    fireEvent.click(await screen.findByText('Grace Hopper (super-admin)'));
    fireEvent.click(await screen.findByText('Log Out'));
    await screen.findByText('Internal server error');
    expect(app.where()).toBe('/manage/users');
    expect(localStorage.getItem(TOKEN_KEYS.token)).toBe('access-1');
  });

  it('Home goes to the landing page of the roles', async () => {
    asRoles(['super-admin']);
    const app = renderApp('/manage/users');
    fireEvent.click(await screen.findByText('Grace Hopper (super-admin)'));
    fireEvent.click(await screen.findByText('Home'));
    await app.opened('/import/upload');
  });
});

describe('sidebar', () => {
  it('shows a user only Update data, Export, Consult (their logbook) and Testing View, as single links', async () => {
    asRoles(['user']);
    const app = renderApp('/testing/index');
    await app.opened('/testing/index');
    expect(menuTexts()).toEqual(['Update data', 'Export', 'Consult', 'Testing View']);
    const links = within(sidebar()).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/',
      '/import/upload',
      '/export/index',
      '/consult/import',
      '/testing/index',
    ]);
  });

  it('shows a super-admin every entry whose page is built, with the submenus', async () => {
    asRoles(['super-admin']);
    const app = renderApp('/manage/users');
    await app.opened('/manage/users');
    expect(menuTexts()).toEqual([
      'Update data',
      'Export',
      'Consult',
      expect.stringContaining('Manage'),
      'Testing View',
      'Activity',
    ]);
    expect(within(sidebar()).getByRole('link', { name: 'Users' }).getAttribute('href')).toBe('/manage/users');
    expect(within(sidebar()).getByRole('link', { name: 'Sdk' }).getAttribute('href')).toBe('/manage/sdk');
    expect(within(sidebar()).getByRole('link', { name: 'Manage endpoints' }).getAttribute('href')).toBe('/manage/endpoints');
    expect(within(sidebar()).getByRole('link', { name: 'Manage listeners' }).getAttribute('href')).toBe('/manage/listeners');
  });

  it('is 210 px wide when open, and its toggle stores 0 then 1 in the sidebarStatus cookie', async () => {
    asRoles(['user']);
    const app = renderApp('/testing/index');
    await app.opened('/testing/index');
    expect(sidebar().style.width).toBe('210px');
    fireEvent.click(screen.getByRole('button', { name: 'Close the sidebar' }));
    expect(document.cookie).toContain('sidebarStatus=0');
    expect(sidebar().style.width).not.toBe('210px');
    fireEvent.click(screen.getByRole('button', { name: 'Open the sidebar' }));
    expect(document.cookie).toContain('sidebarStatus=1');
    expect(sidebar().style.width).toBe('210px');
  });

  it('starts closed when the cookie says 0', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    document.cookie = 'sidebarStatus=0; path=/';
    asRoles(['user']);
    const app = renderApp('/testing/index');
    await app.opened('/testing/index');
    expect(screen.getByRole('button', { name: 'Open the sidebar' })).toBeTruthy();
    expect(sidebar().style.width).toBe('64px');
  });

  it('closes below 992 px (mobile mode) and opens again above, without touching the cookie', async () => {
    asRoles(['user']);
    const app = renderApp('/testing/index');
    await app.opened('/testing/index');
    resizeWindow(991);
    await waitFor(() => expect(sidebar().style.width).toBe('0px'));
    expect(document.querySelector('.gdb-layout')?.classList.contains('is-mobile')).toBe(true);
    expect(document.cookie).not.toContain('sidebarStatus');
    resizeWindow(992);
    await waitFor(() => expect(sidebar().style.width).toBe('210px'));
  });

  it('in mobile mode opens over the page and closes when a page is picked', async () => {
    resizeWindow(800);
    asRoles(['user']);
    const app = renderApp('/testing/index');
    await app.opened('/testing/index');
    expect(sidebar().style.width).toBe('0px');
    fireEvent.click(screen.getByRole('button', { name: 'Open the sidebar' }));
    expect(sidebar().style.width).toBe('210px');
    fireEvent.click(within(sidebar()).getByRole('link', { name: 'Export' }));
    await app.opened('/export/index');
    expect(sidebar().style.width).toBe('0px');
  });
});

describe('upcoming-feature view', () => {
  it('shows only the title of the route it stands for', async () => {
    render(
      <MemoryRouter initialEntries={['/manage/listeners']}>
        <UpcomingPage />
      </MemoryRouter>,
    );
    const heading = await screen.findByRole('heading', { name: 'Manage listeners' });
    expect(heading.closest('.gdb-upcoming')?.textContent).toBe('Manage listeners');
  });
});

describe('keyboard and screen reader', () => {
  it('gives every signed-in page one level-one heading, its route title', async () => {
    asRoles(['super-admin']);
    const app = renderApp('/unauthorized/index');
    await app.opened('/unauthorized/index');
    await waitFor(() => expect(document.querySelectorAll('h1')).toHaveLength(1));
    await app.router.navigate('/manage/documentation');
    await app.opened('/manage/documentation');
    const headings = [...document.querySelectorAll('h1')].map((h) => h.textContent);
    expect(headings).toEqual(['Documentation']);
  });

  it('starts with a skip link that moves the focus to the page', async () => {
    asRoles(['super-admin']);
    const app = renderApp('/manage/documentation');
    await app.opened('/manage/documentation');
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    const first = document.querySelector('a, button, input, [tabindex]:not([tabindex="-1"])');
    expect(first).toBe(skip);
    fireEvent.click(skip);
    expect(document.activeElement?.id).toBe('main-content');
  });
});
