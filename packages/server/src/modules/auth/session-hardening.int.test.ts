import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let boss: string;
beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
});
afterAll(async () => {
  await t.close();
});

async function session(roles: Parameters<TestApp['createUser']>[0] = ['user']) {
  const user = await t.createUser(roles);
  const res = await t.call('POST', '/users/login', { body: { username: user.user_name, password: TEST_PASSWORD } });
  return { user, token: res.body.data.token.value as string, refreshToken: res.body.data.refreshToken as string };
}
const refresh = (refreshToken: string) => t.call('POST', '/users/refresh-token', { body: { refreshToken } });
const info = (token: string) => t.call('GET', '/users/info', { token });

describe('hardened sessions', () => {
  it('revokes the whole family when two requests race with the same refresh token', async () => {
    const s = await session();
    const [a, b] = await Promise.all([refresh(s.refreshToken), refresh(s.refreshToken)]);
    expect([a.status, b.status].sort()).toEqual([200, 401]);
    const winner = a.status === 200 ? a : b;
    expect((await refresh(winner.body.data.refreshToken)).body.code).toBe(50012);
    expect((await info(winner.body.data.token.value)).body.code).toBe(50012);
  });

  it('ends the refresh token with the session on logout', async () => {
    const s = await session();
    await t.call('POST', '/users/logout', { token: s.token });
    const res = await refresh(s.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(50012);
  });

  it('cuts a de-activated user off at the next call and at the next refresh', async () => {
    const s = await session();
    await t.call('POST', '/users/toggle', { token: boss, body: { ids: [s.user.id], enabled: false } });
    expect((await info(s.token)).body.code).toBe(50012);
    expect((await refresh(s.refreshToken)).body.code).toBe(50012);
  });

  it('refuses a refresh for an account disabled by other means', async () => {
    const s = await session();
    await t.ctx.db.kysely.updateTable('users').set({ is_active: false }).where('id', '=', s.user.id).execute();
    const res = await refresh(s.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(50012);
    await t.ctx.db.kysely.updateTable('users').set({ is_active: true }).where('id', '=', s.user.id).execute();
    expect((await info(s.token)).body.code).toBe(50012);
  });

  it('cuts a deleted user off at the next call and at the next refresh', async () => {
    const s = await session(['manager']);
    await t.call('DELETE', `/users?ids=${s.user.id}`, { token: boss });
    const call = await info(s.token);
    expect(call.status).toBe(401);
    expect(call.body.code).toBe(50008);
    expect((await refresh(s.refreshToken)).body.code).toBe(50008);
  });

  it('ends every session of a user whose password was reset', async () => {
    const one = await session();
    const other = await t.call('POST', '/users/login', { body: { username: one.user.user_name, password: TEST_PASSWORD } });
    await t.call('POST', '/users/reset-password', { token: boss, body: { _id: one.user.id } });
    expect((await info(one.token)).body.code).toBe(50012);
    expect((await info(other.body.data.token.value)).body.code).toBe(50012);
  });
});
