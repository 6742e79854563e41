import '../../../test/dom.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { envelope, fakeApi, ok, signIn } from '../../../test/fake-api.ts';
import { api } from './api.ts';
import { ApiError, REQUEST_TIMEOUT_MS, request } from './request.ts';
import { setRequestUi } from './request-ui.ts';
import { clearTokens, getRefreshToken, getToken, hasSession, TOKEN_KEYS } from './token-store.ts';

let relogin = true;
const ui = { confirmLogout: vi.fn(async () => relogin), error: vi.fn(), reload: vi.fn() };
let uninstall: () => void;

beforeEach(() => {
  relogin = true;
  ui.confirmLogout.mockClear();
  ui.error.mockClear();
  ui.reload.mockClear();
  uninstall = setRequestUi(ui);
});

afterEach(() => {
  uninstall();
  vi.useRealTimers();
});

const refreshed = () => ok({ token: { value: 'access-2', expireAt: Date.now() + 900_000 }, refreshToken: 'refresh-2' });

describe('tokens', () => {
  it('keeps token, expiry and refresh token in localStorage; clearing removes all three', () => {
    signIn();
    expect(getToken()?.value).toBe('access-1');
    expect(getRefreshToken()).toBe('refresh-1');
    expect(hasSession()).toBe(true);
    clearTokens();
    for (const key of Object.values(TOKEN_KEYS)) expect(localStorage.getItem(key)).toBeNull();
    expect(hasSession()).toBe(false);
  });
});

describe('request: token and refresh', () => {
  it('sends a valid stored token in X-Token and answers the data of code 20000', async () => {
    signIn();
    const server = fakeApi({ 'GET /brands/list': () => ok([{ _id: 'b1', name: 'Brand' }]) });
    await expect(request({ path: '/brands/list' })).resolves.toEqual([{ _id: 'b1', name: 'Brand' }]);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.headers['x-token']).toBe('access-1');
  });

  it('sends no X-Token and refreshes nothing when no token is stored', async () => {
    const server = fakeApi({ 'GET /brands/list': () => ok([]) });
    await request({ path: '/brands/list' });
    expect(server.calls.map((c) => c.path)).toEqual(['/brands/list']);
    expect(server.calls[0]?.headers['x-token']).toBeUndefined();
  });

  it('refreshes first when the token is missing and a refresh token exists, then stores and sends the new one', async () => {
    localStorage.setItem(TOKEN_KEYS.refreshToken, 'refresh-1');
    const server = fakeApi({ 'POST /users/refresh-token': refreshed, 'GET /users/info': () => ok({ fine: true }) });
    await expect(request({ path: '/users/info' })).resolves.toEqual({ fine: true });
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /users/refresh-token', 'GET /users/info']);
    expect(server.calls[0]?.body).toEqual({ refreshToken: 'refresh-1' });
    expect(server.calls[0]?.headers['x-token']).toBeUndefined();
    expect(server.calls[1]?.headers['x-token']).toBe('access-2');
    expect(localStorage.getItem(TOKEN_KEYS.token)).toBe('access-2');
    expect(Number(localStorage.getItem(TOKEN_KEYS.expireAt))).toBeGreaterThan(Date.now());
    expect(localStorage.getItem(TOKEN_KEYS.refreshToken)).toBe('refresh-2');
  });

  it('refreshes first when the token has expired', async () => {
    signIn(-1000);
    const server = fakeApi({ 'POST /users/refresh-token': refreshed, 'GET /users/info': () => ok(null) });
    await request({ path: '/users/info' });
    expect(server.count('POST /users/refresh-token')).toBe(1);
    expect(server.calls[1]?.headers['x-token']).toBe('access-2');
  });

  it('sends no expired token when there is no refresh token', async () => {
    signIn(-1000);
    localStorage.removeItem(TOKEN_KEYS.refreshToken);
    const server = fakeApi({ 'GET /users/info': () => ok(null) });
    await request({ path: '/users/info' });
    expect(server.calls.map((c) => c.path)).toEqual(['/users/info']);
    expect(server.calls[0]?.headers['x-token']).toBeUndefined();
  });

  it('makes a single refresh for calls started together (refresh tokens are single-use)', async () => {
    signIn(-1000);
    const server = fakeApi({ 'POST /users/refresh-token': refreshed, 'GET /users/info': () => ok(1) });
    await Promise.all([request({ path: '/users/info' }), request({ path: '/users/info' }), request({ path: '/users/info' })]);
    expect(server.count('POST /users/refresh-token')).toBe(1);
    expect(server.calls.filter((c) => c.path === '/users/info').map((c) => c.headers['x-token'])).toEqual([
      'access-2',
      'access-2',
      'access-2',
    ]);
  });

  it('makes no refresh for calls that need no session', async () => {
    localStorage.setItem(TOKEN_KEYS.refreshToken, 'refresh-1');
    const server = fakeApi({ 'POST /users/login': () => ok({ signed: true }) });
    await request({ method: 'POST', path: '/users/login', body: { username: 'a', password: 'b' }, auth: false });
    expect(server.calls.map((c) => c.path)).toEqual(['/users/login']);
  });

  it('shows the logout dialog and rejects the call when the refresh is refused', async () => {
    signIn(-1000);
    fakeApi({ 'POST /users/refresh-token': () => envelope(50012, 'Your session has been revoked.', null, 401) });
    await expect(request({ path: '/users/info' })).rejects.toThrow('Your session has been revoked.');
    await vi.waitFor(() => expect(ui.confirmLogout).toHaveBeenCalledTimes(1));
  });
});

describe('request: answers', () => {
  it.each([50008, 50012, 50014])('offers to log in again on code %i and rejects with the message', async (code) => {
    signIn();
    fakeApi({ 'GET /users/info': () => envelope(code, `message ${code}`, null, 401) });
    relogin = false;
    const error = await request({ path: '/users/info' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: `message ${code}`, code, status: 401, shown: true });
    await vi.waitFor(() => expect(ui.confirmLogout).toHaveBeenCalledTimes(1));
    expect(ui.error).not.toHaveBeenCalled();
  });

  it('Re-Login resets the three tokens and reloads the page', async () => {
    signIn();
    fakeApi({ 'GET /users/info': () => envelope(50014, 'Your session has expired.', null, 401) });
    await request({ path: '/users/info' }).catch(() => undefined);
    await vi.waitFor(() => expect(ui.reload).toHaveBeenCalledTimes(1));
    for (const key of Object.values(TOKEN_KEYS)) expect(localStorage.getItem(key)).toBeNull();
  });

  it('Cancel keeps the tokens and stays on the page', async () => {
    signIn();
    relogin = false;
    fakeApi({ 'GET /users/info': () => envelope(50008, 'Invalid token.', null, 401) });
    await request({ path: '/users/info' }).catch(() => undefined);
    await vi.waitFor(() => expect(ui.confirmLogout).toHaveBeenCalled());
    expect(ui.reload).not.toHaveBeenCalled();
    expect(getToken()?.value).toBe('access-1');
  });

  it('opens one dialog when several calls are refused together', async () => {
    signIn();
    let answer: (v: boolean) => void = () => {};
    ui.confirmLogout.mockImplementationOnce(() => new Promise<boolean>((resolve) => (answer = resolve)));
    fakeApi({ 'GET /users/info': () => envelope(50012, 'Your session has been revoked.', null, 401) });
    await Promise.allSettled([request({ path: '/users/info' }), request({ path: '/users/info' })]);
    expect(ui.confirmLogout).toHaveBeenCalledTimes(1);
    answer(false);
  });

  it('rejects with the message on any other code, with the issues, and shows nothing itself', async () => {
    const issues = [{ path: 'email', message: 'Invalid email' }];
    fakeApi({ 'POST /users': () => envelope(42200, 'Invalid request: email: Invalid email', { issues }, 422) });
    const error = await request({ method: 'POST', path: '/users', body: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'Invalid request: email: Invalid email', code: 42200, issues, shown: false });
    expect(ui.confirmLogout).not.toHaveBeenCalled();
    expect(ui.error).not.toHaveBeenCalled();
  });

  it("rejects with 'Lost connection to server' when the answer has no body", async () => {
    fakeApi({
      'GET /a': () => new Response('', { status: 200, headers: { 'content-type': 'application/json' } }),
      'GET /b': () => new Response(null, { status: 502 }),
    });
    await expect(request({ path: '/a' })).rejects.toThrow('Lost connection to server');
    await expect(request({ path: '/b' })).rejects.toThrow('Lost connection to server');
  });

  it('answers the raw body of a response that is not JSON', async () => {
    fakeApi({ 'GET /file': () => new Response('a;b\n1;2\n', { status: 200, headers: { 'content-type': 'text/csv' } }) });
    await expect(request({ path: '/file' })).resolves.toBe('a;b\n1;2\n');
  });

  it('answers a JSON body that is not an envelope as it is', async () => {
    fakeApi({ 'GET /spec': () => new Response('{"openapi":"3.0.0"}', { headers: { 'content-type': 'application/json' } }) });
    await expect(request({ path: '/spec' })).resolves.toEqual({ openapi: '3.0.0' });
  });

  it('shows a failed non-JSON answer for 5 s and rejects', async () => {
    fakeApi({
      'GET /gateway': () => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    });
    await expect(request({ path: '/gateway' })).rejects.toThrow('Request failed with status code 502');
    expect(ui.error).toHaveBeenCalledWith('Request failed with status code 502', 5);
  });

  it('shows a network error for 5 seconds and rejects', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = await request({ path: '/brands/list' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', message: 'Network Error', shown: true });
    expect(ui.error).toHaveBeenCalledWith('Network Error', 5);
  });

  it('gives up after 2,400,000 ms and shows it for 5 seconds', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            const abort = () => reject(new DOMException('aborted', 'AbortError'));
            if (init.signal?.aborted) abort();
            init.signal?.addEventListener('abort', abort);
          }),
      ),
    );
    expect(REQUEST_TIMEOUT_MS).toBe(2_400_000);
    let settled: unknown;
    const pending = request({ path: '/imports' }).catch((e: unknown) => {
      settled = e;
    });
    await vi.advanceTimersByTimeAsync(2_399_999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(settled).toMatchObject({ kind: 'timeout' });
    expect(ui.error).toHaveBeenCalledWith('timeout of 2400000ms exceeded', 5);
  });

  it('shows nothing when the caller cancels the call', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            const abort = () => reject(new DOMException('aborted', 'AbortError'));
            if (init.signal?.aborted) abort();
            init.signal?.addEventListener('abort', abort);
          }),
      ),
    );
    const controller = new AbortController();
    const pending = request({ path: '/logs', signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow('aborted');
    expect(ui.error).not.toHaveBeenCalled();
  });

  it('puts the query in the URL: lists joined by commas, empty values left out', async () => {
    const server = fakeApi({ 'DELETE /users': () => ok(null) });
    await request({ method: 'DELETE', path: '/users', query: { ids: ['a', 'b'], page: 0, user: undefined, x: null } });
    expect(server.calls[0]?.search).toBe('?ids=a%2Cb&page=0');
  });
});

describe('api helper', () => {
  it('checks and types the data with the shared schema of the call', async () => {
    fakeApi({ 'GET /brands/list': () => ok([{ _id: 'b1', name: 'Brand' }]), 'GET /bad': () => ok({ nope: 1 }) });
    const brands = z.array(z.object({ _id: z.string(), name: z.string() }));
    await expect(api.get('/brands/list', brands)).resolves.toEqual([{ _id: 'b1', name: 'Brand' }]);
    await expect(api.get('/bad', brands)).rejects.toThrow('Unexpected answer from GET /bad');
  });

  it('sends JSON bodies and answers files with their names', async () => {
    const server = fakeApi({
      'POST /uploads/export': () =>
        new Response('zip-bytes', {
          headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="export.zip"' },
        }),
    });
    const file = await api.download('/uploads/export', { uploadIds: ['u1'] });
    expect(file.filename).toBe('export.zip');
    expect(await file.blob.text()).toBe('zip-bytes');
    expect(server.calls[0]?.body).toEqual({ uploadIds: ['u1'] });
    expect(server.calls[0]?.headers['content-type']).toBe('application/json');
  });
});
