import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignPipeline, buildPipeline } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import { loadConfig } from '../config.ts';
import { newId } from '../ids.ts';
import type { AuthContext } from './access-control.ts';
import { SessionCache } from './session-cache.ts';

const CALLER: AuthContext = { userId: 'u1', sessionId: 's1', userName: 'ann', roles: ['user'] };

describe('the session cache', () => {
  it('keeps an entry no longer than its TTL, nor past its token’s expiry', () => {
    const cache = new SessionCache(5000);
    cache.set('a', CALLER, 10_000, cache.epoch(), 0);
    cache.set('b', CALLER, 1_000, cache.epoch(), 0);
    expect(cache.get('a', 4999)).toEqual(CALLER);
    expect(cache.get('a', 5000)).toBeUndefined();
    expect(cache.get('b', 999)).toEqual(CALLER);
    expect(cache.get('b', 1000)).toBeUndefined();
  });

  it('is not filled by a lookup that began before a revocation', () => {
    const cache = new SessionCache(5000);
    const before = cache.epoch();
    cache.forgetSession('s1');
    cache.set('a', CALLER, Date.now() + 60_000, before);
    expect(cache.get('a')).toBeUndefined();
  });

  it('forgets a session, or every session of a user, and keeps nothing with a TTL of 0', () => {
    const cache = new SessionCache(5000);
    const later = Date.now() + 60_000;
    cache.set('a', CALLER, later, cache.epoch());
    cache.set('b', { ...CALLER, sessionId: 's2' }, later, cache.epoch());
    cache.set('c', { ...CALLER, userId: 'u2', sessionId: 's3' }, later, cache.epoch());
    cache.forgetSession('s1');
    expect([cache.get('a'), cache.get('b')?.sessionId, cache.get('c')?.sessionId]).toEqual([undefined, 's2', 's3']);
    cache.forgetUser('u1');
    expect([cache.get('b'), cache.get('c')?.sessionId]).toEqual([undefined, 's3']);
    const off = new SessionCache(0);
    off.set('a', CALLER, later, off.epoch());
    expect(off.get('a')).toBeUndefined();
  });
});

describe('cached sign-ins and revocation', () => {
  let t: TestApp;
  /** A second instance on the same database, whose cache hears revocations only by notification or TTL. */
  let other: BuiltApp;
  const TTL_S = 2;

  beforeAll(async () => {
    t = await createTestApp({ sessionCacheMs: TTL_S * 1000 });
    other = await buildApp(loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', SESSION_CACHE_S: String(TTL_S) }), {
      db: t.ctx.db,
      web: false,
    });
    await other.app.ready();
  });
  afterAll(async () => {
    await other.app.close();
    await t.close();
  });

  const info = (app: BuiltApp, token: string) =>
    app.app.inject({ method: 'GET', url: '/gdb-importer/v1/users/info', headers: { 'x-token': token } });

  it('reads a session once, then answers from memory', async () => {
    const { token } = await t.signedIn(['user']);
    expect((await info(t, token)).statusCode).toBe(200);
    expect(t.services.auth.sessions.size).toBeGreaterThan(0);
    const calls: string[] = [];
    const original = t.services.auth.sessions.get.bind(t.services.auth.sessions);
    t.services.auth.sessions.get = (key: string) => {
      calls.push(key);
      return original(key);
    };
    try {
      expect((await info(t, token)).statusCode).toBe(200);
      expect(calls).toEqual([token]);
    } finally {
      t.services.auth.sessions.get = original;
    }
  });

  it('refuses a token at once on the instance that signed it out', async () => {
    const { token } = await t.signedIn(['user']);
    expect((await info(t, token)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/gdb-importer/v1/users/logout', headers: { 'x-token': token } });
    expect(out.statusCode).toBe(200);
    const after = await info(t, token);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toContain('revoked');
  });

  it('refuses a deactivated user’s token at once on the instance that deactivated it', async () => {
    const { user, token } = await t.signedIn(['user']);
    expect((await info(t, token)).statusCode).toBe(200);
    const admin = await t.signedIn(['super-admin']);
    const res = await t.call('POST', '/users/toggle', { token: admin.token, body: { ids: [user.id], enabled: false } });
    expect(res.status).toBe(200);
    expect((await info(t, token)).statusCode).toBe(401);
  });

  it('cuts off a deleted user at once on the instance that deleted it', async () => {
    const { user, token } = await t.signedIn(['user']);
    expect((await info(t, token)).statusCode).toBe(200);
    const admin = await t.signedIn(['super-admin']);
    expect((await t.call('DELETE', `/users?ids=${user.id}`, { token: admin.token })).status).toBe(200);
    // Emptied before the answer left, not when the database's notification arrives.
    expect(t.services.auth.sessions.size).toBe(0);
    expect((await info(t, token)).statusCode).toBe(401);
  });

  it('refuses a token signed out on another instance within the TTL', async () => {
    const { token } = await t.signedIn(['user']);
    expect((await info(other, token)).statusCode).toBe(200);
    expect(other.services.auth.sessions.size).toBeGreaterThan(0);
    const out = await t.app.inject({ method: 'POST', url: '/gdb-importer/v1/users/logout', headers: { 'x-token': token } });
    expect(out.statusCode).toBe(200);
    const start = Date.now();
    while ((await info(other, token)).statusCode === 200) await new Promise((r) => setTimeout(r, 50));
    expect(Date.now() - start).toBeLessThanOrEqual(TTL_S * 1000 + 500);
  });

  it('hears another instance’s revocation before the TTL when notifications arrive', async () => {
    const { user, token } = await t.signedIn(['user']);
    expect((await info(other, token)).statusCode).toBe(200);
    await t.services.auth.revokeUserSessions(user.id);
    const start = Date.now();
    while ((await info(other, token)).statusCode === 200) await new Promise((r) => setTimeout(r, 20));
    expect(Date.now() - start).toBeLessThan(1000);
  });
});

describe('what the access checks read of a caller, kept with the session', () => {
  let t: TestApp;
  /** A second instance whose cache would keep an entry 30 s: only the database's notification makes it forget sooner. */
  let other: BuiltApp;

  beforeAll(async () => {
    t = await createTestApp({ sessionCacheMs: 30_000 });
    other = await buildApp(loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', SESSION_CACHE_S: '30' }), {
      db: t.ctx.db,
      web: false,
    });
    await other.app.ready();
  });
  afterAll(async () => {
    await other.app.close();
    await t.close();
  });

  const listed = async (token: string, pipelineId: string) => {
    const res = await other.app.inject({ method: 'GET', url: '/gdb-importer/v1/users/pipelines', headers: { 'x-token': token } });
    expect(res.statusCode).toBe(200);
    return (res.json().data.pipelines as { _id: string }[]).some((p) => p._id === pipelineId);
  };
  /** Milliseconds until the other instance lists the pipeline (at most 3 s). */
  const untilListed = async (token: string, pipelineId: string) => {
    const start = Date.now();
    while (!(await listed(token, pipelineId)) && Date.now() - start < 3000) await new Promise((r) => setTimeout(r, 20));
    return Date.now() - start;
  };

  it('reads the user once per session, not on each request nor for the shell’s user info', async () => {
    const { token } = await t.signedIn(['manager']);
    const { id } = await buildPipeline(t, { name: 'Open pipeline' });
    expect(await listed(token, id)).toBe(true);
    const reads: string[] = [];
    const byId = other.services.users.byId;
    other.services.users.byId = (userId: string) => {
      reads.push(userId);
      return byId(userId);
    };
    try {
      expect(await listed(token, id)).toBe(true);
      const info = await other.app.inject({ method: 'GET', url: '/gdb-importer/v1/users/info', headers: { 'x-token': token } });
      expect(info.json().data.user.userName).toBeTruthy();
      expect(reads).toEqual([]);
    } finally {
      other.services.users.byId = byId;
    }
  });

  it('hears a badge given on another instance long before the TTL', async () => {
    const badge = newId();
    const { user, token } = await t.signedIn(['manager']);
    const { id } = await buildPipeline(t, { name: 'Badged pipeline' });
    // The pipeline's badge expression, written on its row: the badge needed to read it.
    await t.ctx.db.kysely
      .updateTable('pipelines')
      .set({ tags: JSON.stringify({ read: [[badge]], write: [] }) })
      .where('id', '=', id)
      .execute();
    expect(await listed(token, id)).toBe(false);
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ project_tags: [badge] })
      .where('id', '=', user.id)
      .execute();
    expect(await untilListed(token, id)).toBeLessThan(1000);
  });

  it('hears the unrestricted-upload flag set on another instance long before the TTL', async () => {
    const { user, token } = await t.signedIn(['user']);
    const { id } = await buildPipeline(t, { name: 'Any kind pipeline' });
    await assignPipeline(t, user.id, id);
    // Not of the dealer data kind: a user without the flag does not get it.
    expect(await listed(token, id)).toBe(false);
    await t.ctx.db.kysely.updateTable('users').set({ unrestricted_upload: true }).where('id', '=', user.id).execute();
    expect(await untilListed(token, id)).toBeLessThan(1000);
  });

  it('hears an assignment on another instance long before the TTL', async () => {
    const { user, token } = await t.signedIn(['user']);
    await t.ctx.db.kysely.updateTable('users').set({ unrestricted_upload: true }).where('id', '=', user.id).execute();
    const { id } = await buildPipeline(t, { name: 'Assigned later' });
    expect(await listed(token, id)).toBe(false);
    await assignPipeline(t, user.id, id);
    expect(await untilListed(token, id)).toBeLessThan(1000);
  });
});
