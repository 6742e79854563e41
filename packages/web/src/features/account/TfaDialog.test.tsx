import '../../../test/dom.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeApi, ok, userInfo } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { TOKEN_KEYS } from '../../ground/request/token-store.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const QR = 'data:image/png;base64,iVBORw0KGgo=';
const CODES = ['a1b2c3d4e5', 'f6g7h8i9j0', 'k1l2m3n4o5'];

const challenge = (setup: boolean) =>
  ok({
    token: null,
    refreshToken: null,
    tfa: setup ? { _id: 'challenge-1', secret: 'JBSWY3DPEHPK3PXP', qrcode: QR } : { _id: 'challenge-1' },
    goNocode: false,
  });

const session = (recoveryCodes: string[] | null) =>
  ok({
    token: { value: 'access-2fa', expireAt: Date.now() + 900_000 },
    refreshToken: 'refresh-2fa',
    recoveryCodes,
    goNocode: false,
  });

async function signIn() {
  fireEvent.change(await screen.findByPlaceholderText('firstname.lastname'), { target: { value: 'ada.lovelace' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
  // The keyboard's path: the button has the focus as it is pressed.
  const login = screen.getByRole('button', { name: 'Login' });
  login.focus();
  fireEvent.click(login);
  return screen.findByRole('dialog');
}

const codeInput = () => screen.getByPlaceholderText('6-digit code');

describe('two-factor sign-in', () => {
  it('first sign-in: shows the QR image and the secret, then the recovery codes once, copied on request', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const server = fakeApi({
      'POST /users/login': () => challenge(true),
      'POST /users/tfa': () => session(CODES),
      'GET /users/info': () => ok(userInfo(['user'])),
    });
    const app = renderApp('/login');
    const dialog = await signIn();
    expect(within(dialog).getByText('Two-Factor Authentication')).toBeTruthy();
    expect(within(dialog).getByAltText('QR code of the two-factor secret').getAttribute('src')).toBe(QR);
    expect(within(dialog).getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEYS.token)).toBeNull();

    fireEvent.change(codeInput(), { target: { value: ' 123456 ' } });
    fireEvent.keyDown(codeInput(), { key: 'Enter', code: 'Enter', keyCode: 13 });
    const codes = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(server.calls.find((c) => c.path === '/users/tfa')?.body).toEqual({ _id: 'challenge-1', code: '123456' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(screen.getByText(/Store these recovery codes in a safe place/)).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEYS.token)).toBe('access-2fa');
    expect(app.where()).toBe('/login');

    fireEvent.click(screen.getByRole('button', { name: 'Copy to clipboard' }));
    await screen.findByText('The codes are copied to clipboard');
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));

    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(app.where()).toBe('/import/upload'));
  });

  it('later sign-ins ask only the code: 6 to 10 characters, a wrong one is refused with the server words', async () => {
    let answer = envelope(40100, 'The code is not valid.', null, 401);
    const server = fakeApi({
      'POST /users/login': () => challenge(false),
      'POST /users/tfa': () => answer,
      'GET /users/info': () => ok(userInfo(['admin'])),
    });
    const app = renderApp('/login');
    const dialog = await signIn();
    expect(within(dialog).queryByAltText('QR code of the two-factor secret')).toBeNull();
    expect(codeInput().getAttribute('maxlength')).toBe('10');

    fireEvent.change(codeInput(), { target: { value: '12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByText('The code must have 6 to 10 characters');
    expect(server.count('POST /users/tfa')).toBe(0);

    fireEvent.change(codeInput(), { target: { value: 'k1l2m3n4o5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await screen.findByText('The code is not valid.');
    expect(localStorage.getItem(TOKEN_KEYS.token)).toBeNull();
    expect((codeInput() as HTMLInputElement).value).toBe('');

    answer = session(null);
    fireEvent.change(codeInput(), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validate' }));
    await waitFor(() => expect(app.where()).toBe('/manage/users'));
    expect(localStorage.getItem(TOKEN_KEYS.refreshToken)).toBe('refresh-2fa');
  });

  it('Cancel closes the dialog, gives the focus back to Login and keeps the visitor signed out', async () => {
    const server = fakeApi({ 'POST /users/login': () => challenge(false) });
    const app = renderApp('/login');
    await signIn();
    await waitFor(() => expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByPlaceholderText('6-digit code')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Login' })));
    expect(app.where()).toBe('/login');
    expect(server.count('POST /users/tfa')).toBe(0);
    expect(localStorage.getItem(TOKEN_KEYS.token)).toBeNull();
  });
});
