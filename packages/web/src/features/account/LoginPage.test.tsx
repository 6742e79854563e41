import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeApi, ok, userInfo } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { TOKEN_KEYS } from '../../ground/request/token-store.ts';
import { leaveApp } from './LoginPage.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

const tokens = (goNocode = false) =>
  ok({
    token: { value: 'access-9', expireAt: Date.now() + 900_000 },
    refreshToken: 'refresh-9',
    tfa: null,
    goNocode,
  });

function server(roles: string[], goNocode = false) {
  return fakeApi({ 'POST /users/login': () => tokens(goNocode), 'GET /users/info': () => ok(userInfo(roles)) });
}

async function submit(username: string, password: string) {
  fireEvent.change(await screen.findByPlaceholderText('firstname.lastname'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('sign-in page', () => {
  it("shows 'Access' with the import title, the username hint, a password with show/hide and the forgotten link", async () => {
    fakeApi({});
    renderApp('/login');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Access GDB Importer');
    expect(screen.getByPlaceholderText('firstname.lastname')).toBeTruthy();
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    fireEvent.click(document.querySelector('.ant-input-password-icon') as Element);
    expect(password.getAttribute('type')).toBe('text');
    expect(screen.getByRole('link', { name: 'Forgot your password ?' }).getAttribute('href')).toBe('/forgotten');
  });

  it('refuses a password under 6 characters and an empty username without calling the server', async () => {
    const api = server(['user']);
    renderApp('/login');
    await submit('   ', '12345');
    await screen.findByText('The password can not be less than 6 digits');
    await screen.findByText('Username is required');
    expect(api.calls).toEqual([]);
  });

  it('sends the username trimmed, stores the tokens and lands a user on /import', async () => {
    const api = server(['user']);
    const app = renderApp('/login');
    await submit('  ada.lovelace  ', 'secret-pass');
    await app.opened('/import/upload');
    expect(api.calls[0]?.body).toEqual({ username: 'ada.lovelace', password: 'secret-pass' });
    expect(localStorage.getItem(TOKEN_KEYS.token)).toBe('access-9');
    expect(localStorage.getItem(TOKEN_KEYS.refreshToken)).toBe('refresh-9');
    expect(api.count('GET /users/info')).toBe(1);
  });

  it('lands an admin on /manage/users', async () => {
    server(['admin']);
    const app = renderApp('/login');
    await submit('ada.lovelace', 'secret-pass');
    await app.opened('/manage/users');
  });

  it('goes to the requested redirect instead', async () => {
    server(['super-admin']);
    const app = renderApp('/login?redirect=/manage/sdk');
    await submit('ada.lovelace', 'secret-pass');
    await app.opened('/manage/sdk');
  });

  it('ignores a redirect to another site', async () => {
    server(['user']);
    const app = renderApp('/login?redirect=//evil.example/x');
    await submit('ada.lovelace', 'secret-pass');
    await app.opened('/import/upload');
  });

  it('leaves for /nocode/ when the answer flags goNocode', async () => {
    const leave = vi.spyOn(leaveApp, 'to').mockImplementation(() => {});
    const api = server(['user'], true);
    renderApp('/login?redirect=/export/index');
    await submit('ada.lovelace', 'secret-pass');
    await waitFor(() => expect(leave).toHaveBeenCalledWith('/nocode/'));
    expect(api.count('GET /users/info')).toBe(0);
  });

  it("shows the server's message as an error toast, and says it in a live region", async () => {
    fakeApi({ 'POST /users/login': () => envelope(40100, 'Wrong username or password.', null, 401) });
    const app = renderApp('/login');
    const region = await screen.findByRole('alert');
    expect(region.textContent).toBe('');
    await submit('ada.lovelace', 'wrong-pass');
    await waitFor(() => expect(document.querySelector('.ant-message')?.textContent).toBe('Wrong username or password.'));
    expect(region.textContent).toBe('Wrong username or password.');
    expect(app.where()).toBe('/login');
    expect(localStorage.getItem(TOKEN_KEYS.token)).toBeNull();
  });
});
