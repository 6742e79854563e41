import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { superAdmin } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import type { AuthContext } from '../../platform/auth/access-control.ts';

let t: TestApp;
let boss: string;
beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
});
afterAll(async () => {
  await t.close();
});

const save = (body: Record<string, unknown>, token = boss) => t.call('POST', '/sdk', { token, body });
const execute = (name: string, payload: unknown, token = boss) =>
  t.call('POST', `/sdk/${name}/execute`, { token, body: { payload } });

describe('SDK functions', () => {
  it('creates one from a name and code; the answer says its id', async () => {
    const res = await save({ functionName: 'addVat', jsCode: 'async function (price, rate) {\n  return price * (1 + rate);\n}' });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(`sdk saved, id : ${res.body.data._id}`);
    expect(res.body.data).toMatchObject({
      functionName: 'addVat',
      version: 1,
      vLocked: false,
      testPayload: [],
      documentation: '',
      modules: [],
      sys_version: 1,
    });
    const found = await t.call('GET', `/sdk/find?id=${res.body.data._id}`, { token: boss });
    expect(found.body.data).toEqual(res.body.data);
  });

  it('starts a new one with a default asynchronous function answering a sentence', async () => {
    const res = await save({ functionName: 'hello' });
    expect(res.body.data.jsCode).toMatch(/^async function/);
    const run = await execute('hello', []);
    expect(run.status).toBe(200);
    expect(run.body.data.output).toBe('Hello from the SDK');
  });

  it('saves the full object, refuses a name another function has, and an identifier that is not one', async () => {
    const a = (await save({ functionName: 'one' })).body.data;
    await save({ functionName: 'two' });
    const full = await save({
      ...a,
      documentation: 'Says one.',
      input: 'none',
      output: 'a string',
      modules: [{ name: 'dayjs', version: '' }],
    });
    expect(full.status).toBe(200);
    expect(full.body.data).toMatchObject({
      documentation: 'Says one.',
      modules: [{ name: 'dayjs', version: expect.stringMatching(/^1\.\d+\.\d+$/) }],
      sys_version: 2,
    });
    const taken = await save({ _id: a._id, functionName: 'two' });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('An SDK function named two already exists.');
    expect((await save({ functionName: 'one' })).status).toBe(409);
    const bad = await save({ functionName: 'not valid' });
    expect(bad.status).toBe(422);
    expect(bad.body.data.issues[0].path).toBe('functionName');
  });

  it('lists every function without its code', async () => {
    expect((await save({ functionName: 'listed', jsCode: 'async function (a) {\n  return a;\n}' })).status).toBe(200);
    const list = await t.call('GET', '/sdk', { token: boss });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((f: { functionName: string }) => f.functionName === 'listed');
    expect(listed).toMatchObject({ functionName: 'listed', version: 1 });
    expect(listed.jsCode).toBeUndefined();
  });

  it('runs by name on an argument array', async () => {
    await save({ functionName: 'addTax', jsCode: 'async function (price, rate) {\n  return price * (1 + rate);\n}' });
    const res = await execute('addTax', [100, 0.2]);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ output: 120, logs: [] });
  });

  it('answers a failing run as an Execute error', async () => {
    await save({ functionName: 'fails', jsCode: "function () { console.log('before'); throw new TypeError('bad input'); }" });
    const res = await execute('fails', []);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Execute error : SDK function "fails": TypeError: bad input');
    await save({ functionName: 'typo', jsCode: 'function ( { }' });
    expect((await execute('typo', [])).body.message).toMatch(/^Execute error : SDK function "typo" v1: SyntaxError/);
    expect((await execute('nobody', [])).status).toBe(404);
  });

  it('is called by components that list it, and cannot be deleted while they do', async () => {
    const fn = (await save({ functionName: 'shout', jsCode: '(s) => s.toUpperCase()' })).body.data;
    const c = await t.services.components.save(superAdmin(), {
      name: 'Uses shout',
      outputs: [{ name: 'v' }],
      sdk: [fn._id],
      jsCode: 'ctx.output.v = sdk.shout("hey");',
    });
    const run = await t.call('POST', `/components/${c._id}/execute`, { token: boss, body: {} });
    expect(run.body.data.output).toEqual({ v: 'HEY' });
    const refused = await t.call('DELETE', `/sdk?id=${fn._id}`, { token: boss });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This SDK function is used by Uses shout v1.');
    expect((await t.call('DELETE', `/components?id=${c._id}`, { token: boss })).status).toBe(200);
    expect((await t.call('DELETE', `/sdk?id=${fn._id}`, { token: boss })).body.data).toEqual({ _id: fn._id });
  });

  it('is for super-admins only', async () => {
    expect((await save({ functionName: 'documented', jsCode: '(a) => a' })).status).toBe(200);
    const { token } = await t.signedIn(['manager']);
    expect((await t.call('GET', '/sdk', { token })).status).toBe(403);
    expect((await save({ functionName: 'nope' }, token)).status).toBe(403);
    expect((await execute('documented', [1], token)).status).toBe(403);
    const docs = await t.call('GET', '/components/documentation', { token });
    expect(docs.status).toBe(200);
    expect(docs.body.data.map((f: { functionName: string }) => f.functionName)).toContain('documented');
  });

  it('refuses a save or a delete of a read-only SDK function, even to a super-admin', async () => {
    const fn = (await save({ functionName: 'frozen' })).body.data;
    await t.ctx.db.kysely.updateTable('sdk_functions').set({ read_only: true }).where('id', '=', fn._id).execute();
    const refused = await save({ ...fn, documentation: 'changed' });
    expect([refused.status, refused.body.message]).toEqual([403, 'This SDK function is read-only.']);
    const kept = await t.call('DELETE', `/sdk?id=${fn._id}`, { token: boss });
    expect([kept.status, kept.body.message]).toEqual([403, 'This SDK function is read-only.']);
  });

  it('goes through the document badges check: a caller without the write badge may not save, delete or move one', async () => {
    // The routes admit super-admins only, whom every badge lets through: the service checks any caller.
    const secret = (await t.call('POST', '/tags', { token: boss, body: { name: 'Sdk secret', type: 'project' } })).body.data._id;
    const fn = (await save({ functionName: 'badged' })).body.data;
    const other = (await save({ functionName: 'badgedFolder' })).body.data;
    const badge = (id: string, type: string, write: string[][], read: string[][] = []) =>
      t.call('POST', '/tags/update-document-tags', { token: boss, body: { id, type, tags: { read, write } } });
    expect((await badge(fn._id, 'sdk', [[secret]])).status).toBe(200);
    const manager = await t.createUser(['manager']);
    const outsider: AuthContext = { userId: manager.id, sessionId: 'none', userName: manager.user_name, roles: ['manager'] };
    const fresh = await t.services.sdk.find(fn._id, superAdmin());
    await expect(t.services.sdk.save(outsider, { ...fresh, documentation: 'x' })).rejects.toMatchObject({
      status: 403,
      message: 'You are not allowed to change this document.',
    });
    await expect(t.services.sdk.remove(outsider, fn._id)).rejects.toMatchObject({ status: 403 });
    // Read badges close it to reading too.
    await badge(fn._id, 'sdk', [[secret]], [[secret]]);
    await expect(t.services.sdk.find(fn._id, outsider)).rejects.toMatchObject({ status: 403 });
    expect((await t.services.sdk.list(outsider)).map((f) => f._id)).not.toContain(fn._id);
    // A folder whose write badges they lack takes no SDK function of theirs either.
    const closed = (await t.call('POST', '/folders', { token: boss, body: { name: 'Closed sdk', kind: 'sdk' } })).body.data.id;
    await badge(closed, 'folder', [[secret]]);
    const open = await t.services.sdk.find(other._id, superAdmin());
    await expect(t.services.sdk.save(outsider, { ...open, folder: closed })).rejects.toMatchObject({ status: 403 });
    await expect(t.services.sdk.save(outsider, { functionName: 'inClosed', folder: closed })).rejects.toMatchObject({
      status: 403,
    });
    expect((await t.services.sdk.save(outsider, { ...open, documentation: 'open' })).documentation).toBe('open');
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ project_tags: [secret] })
      .where('id', '=', manager.id)
      .execute();
    expect(
      (await t.services.sdk.save(outsider, { ...(await t.services.sdk.find(fn._id, superAdmin())), documentation: 'y' }))
        .documentation,
    ).toBe('y');
    expect(await t.services.sdk.remove(outsider, fn._id)).toEqual({ _id: fn._id });
  });
});
