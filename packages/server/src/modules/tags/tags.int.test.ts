import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let boss: string;
beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
});
afterAll(async () => {
  await t.close();
});

const create = (body: Record<string, unknown>, token = boss) => t.call('POST', '/tags', { token, body });

describe('badges', () => {
  it('creates group and project badges and lists them sorted by name ignoring case', async () => {
    const group = await create({ name: 'zeta team', type: 'group' });
    expect(group.status).toBe(200);
    expect(group.body.data).toEqual({
      _id: expect.any(String),
      name: 'zeta team',
      type: 'group',
      color: null,
      isHidden: false,
      isMetadata: false,
      metadata: null,
    });
    const project = await create({ name: 'Alpha', type: 'project', color: '#12ab9F', isHidden: true });
    expect(project.body.data).toMatchObject({ type: 'project', color: '#12ab9F', isHidden: true });
    await create({ name: 'beta', type: 'project' });
    const { token } = await t.signedIn(['user']);
    const list = await t.call('GET', '/tags/list', { token });
    expect(list.status).toBe(200);
    const names: string[] = list.body.data.map((x: { name: string }) => x.name);
    // Badges other tests made may sit among these: the whole list is sorted, these three in it.
    expect(names.filter((name) => ['zeta team', 'Alpha', 'beta'].includes(name))).toEqual(['Alpha', 'beta', 'zeta team']);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })));
  });

  it('refuses a duplicate name within a type, ignoring case, and allows it in the other type', async () => {
    expect((await create({ name: 'Finance', type: 'group' })).status).toBe(200);
    const dup = await create({ name: 'FINANCE', type: 'group' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A group badge named FINANCE already exists.');
    expect((await create({ name: 'Finance', type: 'project' })).status).toBe(200);
  });

  it('updates a badge but never its type', async () => {
    const made = await create({ name: 'Ops', type: 'project', color: '#000000' });
    const id = made.body.data._id;
    const renamed = await create({ _id: id, name: 'Operations', type: 'project', color: '#ffffff' });
    expect(renamed.body.data).toMatchObject({ _id: id, name: 'Operations', color: '#ffffff' });
    const retyped = await create({ _id: id, name: 'Operations', type: 'group' });
    expect(retyped.status).toBe(422);
    expect(retyped.body.message).toBe('The type of a badge cannot be changed.');
    expect((await create({ _id: newId(), name: 'Ghost', type: 'group' })).status).toBe(404);
  });

  it('validates names, types and colours', async () => {
    expect((await create({ name: '   ', type: 'group' })).body.message).toContain('Please input the badge name');
    expect((await create({ name: 'x'.repeat(51), type: 'group' })).status).toBe(422);
    expect((await create({ name: 'ok', type: 'admin' })).body.message).toContain('The badge type is group or project');
    expect((await create({ name: 'ok', type: 'project', color: 'red' })).body.message).toContain(
      'The colour must be written #rrggbb',
    );
  });

  it('deletes badges by comma-joined ids and takes them off every user', async () => {
    const a = (await create({ name: 'Doomed A', type: 'group' })).body.data._id;
    const p = (await create({ name: 'Doomed P', type: 'project' })).body.data._id;
    const keep = (await create({ name: 'Kept', type: 'project' })).body.data._id;
    const user = await t.createUser(['user']);
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ admin_tags: [a], project_tags: [p, keep] })
      .where('id', '=', user.id)
      .execute();
    const res = await t.call('DELETE', `/tags?ids=${a},${p}`, { token: boss });
    expect(res.status).toBe(200);
    expect(res.body.data.ids.sort()).toEqual([a, p].sort());
    const after = await t.ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(after.admin_tags).toEqual([]);
    expect(after.project_tags).toEqual([keep]);
    const names = (await t.call('GET', '/tags/list', { token: boss })).body.data.map((x: { name: string }) => x.name);
    expect(names).not.toContain('Doomed A');
  });

  it('leaves the users their badges when the badges cannot be deleted', async () => {
    const a = (await create({ name: 'Stuck', type: 'group' })).body.data._id;
    const user = await t.createUser(['user']);
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ admin_tags: [a] })
      .where('id', '=', user.id)
      .execute();
    await sql`create function refuse_tag_delete() returns trigger language plpgsql as $$
      begin raise exception 'tags stay'; end $$`.execute(t.ctx.db.kysely);
    await sql`create trigger refuse_tag_delete before delete on tags for each row execute function refuse_tag_delete()`.execute(
      t.ctx.db.kysely,
    );
    try {
      expect((await t.call('DELETE', `/tags?ids=${a}`, { token: boss })).status).toBe(500);
    } finally {
      await sql`drop trigger refuse_tag_delete on tags`.execute(t.ctx.db.kysely);
      await sql`drop function refuse_tag_delete()`.execute(t.ctx.db.kysely);
    }
    const after = await t.ctx.db.kysely
      .selectFrom('users')
      .select('admin_tags')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.admin_tags).toEqual([a]);
  });

  it('reloads the cache to see changes made by another instance', async () => {
    const before = (await t.call('GET', '/tags/list', { token: boss })).body.data.length;
    // A row another instance wrote, behind this instance's cache: the raw row is the point.
    await t.ctx.db.kysely.insertInto('tags').values({ id: newId(), name: 'Written elsewhere', type: 'group' }).execute();
    const reloaded = await t.call('GET', '/tags/cache-reload', { token: boss });
    expect(reloaded.status).toBe(200);
    expect(reloaded.body.data).toHaveLength(before + 1);
    expect((await t.call('GET', '/tags/list', { token: boss })).body.data).toHaveLength(before + 1);
  });

  it('leaves the global badge list to the super-admin', async () => {
    const { token } = await t.signedIn(['admin', 'manager']);
    expect((await create({ name: 'Nope', type: 'group' }, token)).status).toBe(403);
    expect((await t.call('DELETE', `/tags?ids=${newId()}`, { token })).status).toBe(403);
    expect((await t.call('GET', '/tags/list', { token })).status).toBe(200);
  });
});
