import '../../test/dom.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeApi, signedInAs, signIn } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { TOKEN_KEYS } from '../ground/request/token-store.ts';
import { createQueryClient, trackNavigation } from './AppRoot.tsx';
import { progress } from './progress.ts';
import { createRoutes } from './routes.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

const asRoles = (...roles: string[]) => signedInAs(roles);

describe('route guard without a token', () => {
  it('sends / to /login and shows the sign-in form', async () => {
    fakeApi({});
    const app = renderApp('/');
    await screen.findByRole('button', { name: 'Login' });
    expect(app.where()).toBe('/login');
  });

  it('sends a protected path to /login with a redirect back to it', async () => {
    fakeApi({});
    const app = renderApp('/manage/users');
    await screen.findByRole('button', { name: 'Login' });
    expect(app.where()).toBe('/login?redirect=/manage/users');
  });

  it("sends an unknown path to /404 'Wrong page...'", async () => {
    fakeApi({});
    const app = renderApp('/no/such/page');
    await screen.findByText('Wrong page...');
    expect(app.where()).toBe('/404');
  });

  it('opens the public paths without asking the server anything', async () => {
    const server = fakeApi({});
    const app = renderApp('/forgotten');
    await waitFor(() => expect(app.router.state.navigation.state).toBe('idle'));
    expect(app.where()).toBe('/forgotten');
    expect(server.calls).toEqual([]);
  });
});

describe('route guard with a token', () => {
  it('loads the user info once per session, however many pages are opened', async () => {
    const server = asRoles('super-admin');
    const app = renderApp('/manage/users');
    await app.opened('/manage/users');
    for (const to of ['/manage/pipeline', '/export/index', '/testing/index', '/manage/sdk']) {
      await app.router.navigate(to);
      await app.opened(to);
    }
    expect(server.count('GET /users/info')).toBe(1);
  });

  it('loads it again only when forced', async () => {
    const server = asRoles('super-admin');
    const app = renderApp('/manage/users');
    await app.opened('/manage/users');
    await app.queryClient.invalidateQueries({ queryKey: ['session', 'info'] });
    await waitFor(() => expect(server.count('GET /users/info')).toBe(2));
  });

  it('sends a manager who types /manage/users to /unauthorized', async () => {
    asRoles('manager');
    const app = renderApp('/manage/users');
    await screen.findByRole('heading', { name: 'Unauthorized' });
    expect(app.where()).toBe('/unauthorized/index');
  });

  it('sends a signed-in user away from /login: admin to /manage (its Users page), others to /import', async () => {
    asRoles('admin');
    const admin = renderApp('/login');
    await admin.opened('/manage/users');
    admin.view.unmount();
    asRoles('user');
    const user = renderApp('/login');
    await user.opened('/import/upload');
  });

  it('sends a user without roles to /login with a redirect back', async () => {
    asRoles();
    const app = renderApp('/testing/index');
    await screen.findByRole('button', { name: 'Login' });
    expect(app.where()).toBe('/login?redirect=/testing/index');
  });

  it("signs out with 'Verification failed, please Login again' when the user info cannot be loaded", async () => {
    signIn();
    fakeApi({ 'GET /users/info': () => envelope(50000, 'Internal server error', null, 500) });
    const app = renderApp('/testing/index');
    await screen.findByText('Verification failed, please Login again');
    await screen.findByRole('button', { name: 'Login' });
    expect(app.where()).toBe('/login?redirect=/testing/index');
    for (const key of Object.values(TOKEN_KEYS)) expect(localStorage.getItem(key)).toBeNull();
  });

  it("shows the 'Confirm logout' dialog when the server has revoked the session", async () => {
    signIn();
    fakeApi({ 'GET /users/info': () => envelope(50012, 'Your session has been revoked.', null, 401) });
    const app = renderApp('/testing/index');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm logout' });
    expect(dialog.textContent).toContain('You have been logged out, you can cancel to stay on this page, or log in again');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    within(dialog).getByRole('button', { name: 'Re-Login' }).click();
    await waitFor(() => expect(app.reload).toHaveBeenCalledTimes(1));
    for (const key of Object.values(TOKEN_KEYS)) expect(localStorage.getItem(key)).toBeNull();
  });

  it('titles the tab "{title} - GDB-IMPORTER" on each page, the product title alone where there is none', async () => {
    asRoles('super-admin');
    const app = renderApp('/manage/users');
    await waitFor(() => expect(document.title).toBe('Users - GDB-IMPORTER'));
    await app.router.navigate('/import');
    await waitFor(() => expect(document.title).toBe('Upload new file - GDB-IMPORTER'));
    await app.router.navigate('/404');
    await waitFor(() => expect(document.title).toBe('GDB-IMPORTER'));
  });

  it('runs the progress bar on each navigation', async () => {
    asRoles('super-admin');
    const start = vi.spyOn(progress, 'start');
    const done = vi.spyOn(progress, 'done');
    const router = createMemoryRouter(createRoutes(createQueryClient()), { initialEntries: ['/manage/users'] });
    const stop = trackNavigation(router);
    expect(start).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(router.state.initialized).toBe(true));
    await waitFor(() => expect(done).toHaveBeenCalledTimes(1));
    await router.navigate('/import');
    expect(router.state.location.pathname).toBe('/import/upload');
    expect(start).toHaveBeenCalledTimes(2);
    expect(done).toHaveBeenCalledTimes(2);
    stop();
  });
});
