import { afterAll, describe, expect, it } from 'vitest';
import { superAdmin } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});

/**
 * A data model family with a locked version 1 and a draft version 2, made by a super-admin; a
 * manager without badges, and the save of the draft they attempt.
 */
async function familyWithLockedVersion(lockedOnly: boolean) {
  const t = await createTestApp({ accessLockedOnly: lockedOnly });
  apps.push(t);
  const boss = (await t.signedIn(['super-admin'])).token;
  const manager = (await t.signedIn(['manager'])).token;
  const call = (method: 'POST' | 'GET', url: string, token: string, body?: unknown) =>
    t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
  const v1 = (await call('POST', '/schemas', boss, { name: 'Locked family', jsonSchema: { type: 'object' } })).body.data;
  expect((await call('POST', '/schemas/version/lock', boss, { id: v1._id })).status).toBe(200);
  const v2 = (await call('POST', '/schemas/version/new', boss, { id: v1._id })).body.data as { _id: string };
  const draft = (await call('GET', `/schemas/find?id=${v2._id}`, manager)).body.data;
  const save = (token: string) =>
    call('POST', '/schemas', token, {
      _id: draft._id,
      name: draft.name,
      version: draft.version,
      sys_version: draft.sys_version,
      jsonSchema: { type: 'object', description: 'changed' },
    });
  return { boss, manager, save, call, draft };
}

describe('the locked-only rule of the document access check (ACCESS_LOCKED_ONLY)', () => {
  it('on: a manager may not save a draft of a data model that has a locked version; a super-admin may', async () => {
    const { boss, manager, save, call, draft } = await familyWithLockedVersion(true);
    const refused = await save(manager);
    expect([refused.status, refused.body.message]).toEqual([403, 'You are not allowed to change this document.']);
    expect((await call('POST', '/schemas/version/delete', manager, { id: draft._id })).status).toBe(403);
    // A data model with no locked version stays open to them.
    const open = (await call('POST', '/schemas', boss, { name: 'Unlocked family', jsonSchema: { type: 'object' } })).body.data;
    const saved = await call('POST', '/schemas', manager, { ...open, jsonSchema: { type: 'string' } });
    expect(saved.status).toBe(200);
    expect((await save(boss)).status).toBe(200);
    // The explorer is told so: the family is not writable for the manager.
    const tree = async (token: string) =>
      (await call('GET', '/folders/tree?kind=schema', token)).body.data[0].children.find(
        (n: { value: string }) => n.value === draft._id,
      ).write_access;
    expect([await tree(manager), await tree(boss)]).toEqual([false, true]);
  });

  it('off (the default): the same manager saves the draft', async () => {
    const { manager, save } = await familyWithLockedVersion(false);
    const res = await save(manager);
    expect(res.status).toBe(200);
    expect(res.body.data.jsonSchema).toEqual({ type: 'object', description: 'changed' });
  });
});

describe('the locked-only rule on component draft saves', () => {
  /** A component family with a locked version 1 and a draft version 2, and a draft save by a caller. */
  async function componentWithLockedVersion(lockedOnly: boolean) {
    const t = await createTestApp({ accessLockedOnly: lockedOnly });
    apps.push(t);
    const boss = (await t.signedIn(['super-admin'])).token;
    const manager = (await t.signedIn(['manager'])).token;
    const post = (url: string, token: string, body: unknown) => t.call('POST', url, { token, body });
    const v1 = (await post('/components', boss, { name: 'Locked component', folder: null })).body.data;
    expect((await post('/components/version/lock', boss, { id: v1._id })).status).toBe(200);
    const v2 = (await post('/components/version/new', boss, { id: v1._id })).body.data as { _id: string };
    const draft = (await t.call('GET', `/components/find?id=${v2._id}`, { token: boss })).body.data;
    const save = (token: string) => post('/components', token, { ...draft, description: 'changed' });
    return { boss, manager, save };
  }

  it('on: a manager may not save a component draft whose family has a locked version; a super-admin may', async () => {
    const { boss, manager, save } = await componentWithLockedVersion(true);
    const refused = await save(manager);
    expect([refused.status, refused.body.message]).toEqual([403, 'You are not allowed to change this document.']);
    const saved = await save(boss);
    expect([saved.status, saved.body.data.description]).toEqual([200, 'changed']);
  });

  it('off: the same manager saves the component draft', async () => {
    const { manager, save } = await componentWithLockedVersion(false);
    const saved = await save(manager);
    expect([saved.status, saved.body.data.description]).toEqual([200, 'changed']);
  });
});

describe('the locked-only rule on SDK function drafts', () => {
  it('on: a manager (through the service; the routes are the super-admin’s) may not save or delete a draft whose family has a locked version', async () => {
    const t = await createTestApp({ accessLockedOnly: true });
    apps.push(t);
    const boss = (await t.signedIn(['super-admin'])).token;
    const post = (url: string, body: unknown) => t.call('POST', url, { token: boss, body });
    const v1 = (await post('/sdk', { functionName: 'lockedFn' })).body.data;
    expect((await post('/sdk/version/lock', { id: v1._id })).status).toBe(200);
    const v2 = (await post('/sdk/version/new', { id: v1._id })).body.data as { _id: string };
    const draft = await t.services.sdk.find(v2._id, superAdmin());
    const user = await t.createUser(['manager']);
    const manager = { userId: user.id, sessionId: 'none', userName: user.user_name, roles: ['manager'] };
    const refused = { status: 403, message: 'You are not allowed to change this document.' };
    await expect(t.services.sdk.save(manager, { ...draft, documentation: 'changed' })).rejects.toMatchObject(refused);
    await expect(t.services.sdk.remove(manager, draft._id)).rejects.toMatchObject(refused);
  });
});
