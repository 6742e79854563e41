import { SCOPE_MESSAGES } from '@gdb/shared/users/user-scope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// An attacker holding a manager's (or an admin's) account, acting through the API as they would.
let t: TestApp;
let boss: string;
const badge = { read: '', write: '', team: '' };

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, body?: unknown) =>
  t.call(method, url, { token, ...(body === undefined ? {} : { body }) });

/** Signs in a new user with these roles, project badges and admin badges. */
async function signIn(roles: ('manager' | 'admin')[], projectTags: string[], adminTags: string[] = []) {
  const user = await t.createUser(roles);
  await t.ctx.db.kysely
    .updateTable('users')
    .set({ project_tags: projectTags, admin_tags: adminTags })
    .where('id', '=', user.id)
    .execute();
  return { id: user.id, token: await t.login(user.user_name) };
}

const projectTagsOf = async (id: string) =>
  (await t.ctx.db.kysely.selectFrom('users').select('project_tags').where('id', '=', id).executeTakeFirstOrThrow()).project_tags;

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  const tag = async (name: string, type: 'project' | 'group') =>
    (await call('POST', '/tags', boss, { name, type })).body.data._id as string;
  badge.read = await tag('Readers', 'project');
  badge.write = await tag('Writers', 'project');
  badge.team = await tag('Team', 'group');
});
afterAll(() => t.close());

describe('a document whose badges let the attacker write it but not read it', () => {
  /** A data model and a component, each readable with `read` and writable with `write`. */
  async function halfOpen() {
    const model = (await call('POST', '/schemas', boss, { name: `Half open ${Math.random()}`, jsonSchema: { type: 'object' } }))
      .body.data;
    const component = (await call('POST', '/components', boss, { name: 'Half open component' })).body.data;
    for (const [id, type] of [
      [model._id, 'schema'],
      [component._id, 'component'],
    ]) {
      const tags = { read: [[badge.read]], write: [[badge.write]] };
      expect((await call('POST', '/tags/update-document-tags', boss, { id, type, tags })).status).toBe(200);
    }
    return { model, component };
  }

  it('cannot be overwritten or deleted by them', async () => {
    const { model, component } = await halfOpen();
    const writer = await signIn(['manager'], [badge.write]);
    const overwrite = {
      _id: model._id,
      name: model.name,
      version: 1,
      sys_version: model.sys_version,
      jsonSchema: { type: 'string' },
    };
    expect((await call('POST', '/schemas', writer.token, overwrite)).status).toBe(403);
    expect((await call('POST', '/schemas/version/delete', writer.token, { id: model._id })).status).toBe(403);
    expect((await call('DELETE', `/schemas?id=${model._id}`, writer.token)).status).toBe(403);
    const replaced = { _id: component._id, name: 'Mine now', sys_version: component.sys_version, jsCode: 'x' };
    expect((await call('POST', '/components', writer.token, replaced)).status).toBe(403);
    expect((await call('DELETE', `/components?id=${component._id}`, writer.token)).status).toBe(403);
    const stored = (await call('GET', `/schemas/find?id=${model._id}`, boss)).body.data;
    expect([stored.sys_version, stored.jsonSchema]).toEqual([model.sys_version, { type: 'object' }]);
  });

  it('is written by a caller holding both badges', async () => {
    const { model } = await halfOpen();
    const both = await signIn(['manager'], [badge.read, badge.write]);
    const save = { _id: model._id, name: model.name, version: 1, sys_version: model.sys_version, jsonSchema: { type: 'string' } };
    expect((await call('POST', '/schemas', both.token, save)).status).toBe(200);
  });
});

describe('an admin giving badges', () => {
  const userBody = (user: { id: string }, project_tags: string[]) =>
    t.ctx.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
      .then((u) => ({
        _id: u.id,
        firstName: u.first_name,
        lastName: u.last_name,
        email: u.email,
        roles: u.roles,
        admin_tags: u.admin_tags,
        project_tags,
      }));

  it('may not give itself a project badge it does not hold', async () => {
    const admin = await signIn(['admin'], [], [badge.team]);
    const res = await call('POST', '/users', admin.token, await userBody(admin, [badge.read]));
    expect([res.status, res.body.message]).toEqual([403, SCOPE_MESSAGES.foreignProjectBadges]);
    expect(await projectTagsOf(admin.id)).toEqual([]);
  });

  it('may not give a user it manages a project badge it does not hold, nor take one away', async () => {
    const admin = await signIn(['admin'], [badge.write], [badge.team]);
    const member = await signIn(['manager'], [badge.read], [badge.team]);
    const given = await call('POST', '/users', admin.token, await userBody(member, [badge.read, badge.write]));
    expect(given.status).toBe(200);
    for (const tags of [[badge.write], [badge.read, badge.write, badge.team]]) {
      const res = await call('POST', '/users', admin.token, await userBody(member, tags));
      expect([res.status, res.body.message]).toEqual([403, SCOPE_MESSAGES.foreignProjectBadges]);
    }
    expect(await projectTagsOf(member.id)).toEqual([badge.read, badge.write]);
    const taken = await call('POST', '/users', admin.token, await userBody(member, [badge.read]));
    expect([taken.status, await projectTagsOf(member.id)]).toEqual([200, [badge.read]]);
  });
});
