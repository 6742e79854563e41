import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let boss: { token: string; user: { id: string } };
let badges: { a: string; b: string; c: string; project: string };

async function badge(name: string, type: 'group' | 'project') {
  return (await t.services.tags.save({ name, type }))._id;
}

beforeAll(async () => {
  t = await createTestApp();
  boss = await t.signedIn(['super-admin']);
  badges = {
    a: await badge('Team A', 'group'),
    b: await badge('Team B', 'group'),
    c: await badge('Team C', 'group'),
    project: await badge('Project X', 'project'),
  };
});
afterAll(async () => {
  await t.close();
});

/** An admin holding the given admin badges, signed in. */
async function adminWith(tags: string[], roles: ('admin' | 'manager')[] = ['admin']) {
  const user = await t.createUser(roles);
  await t.ctx.db.kysely.updateTable('users').set({ admin_tags: tags }).where('id', '=', user.id).execute();
  return { user, token: await t.login(user.user_name) };
}

/** A user with these admin badges. */
async function member(tags: string[], roles: ('user' | 'manager' | 'admin' | 'super-admin')[] = ['user']) {
  const user = await t.createUser(roles);
  await t.ctx.db.kysely.updateTable('users').set({ admin_tags: tags }).where('id', '=', user.id).execute();
  return user;
}

let seq = 0;
function form(extra: Record<string, unknown> = {}) {
  seq += 1;
  return { firstName: 'Mary Ann', lastName: `Smith${seq}x`, email: `mary.${seq}@example.test`, roles: ['user'], ...extra };
}
const save = (token: string, body: unknown) => t.call('POST', '/users', { token, body });

describe('GET /users', () => {
  it('lists every user for a super-admin, in the Users screen shape', async () => {
    const u = await member([badges.a]);
    const res = await t.call('GET', '/users', { token: boss.token });
    expect(res.status).toBe(200);
    const found = res.body.data.find((x: { _id: string }) => x._id === u.id);
    expect(found).toEqual({
      _id: u.id,
      firstName: u.first_name,
      lastName: u.last_name,
      userName: u.user_name,
      email: u.email,
      service: '',
      role: 'user',
      roles: [{ name: 'user' }],
      isActive: true,
      unrestrictedUpload: false,
      isNoCode: false,
      tfaEnabled: false,
      lastSeenDate: null,
      admin_tags: [badges.a],
      project_tags: [],
      pipelinePermissions: {},
    });
  });

  it('shows a non-super-admin only itself and the users sharing one of its admin badges', async () => {
    const admin = await adminWith([badges.a, badges.b]);
    const inA = await member([badges.a]);
    const inBC = await member([badges.b, badges.c]);
    const inC = await member([badges.c]);
    const none = await member([]);
    const res = await t.call('GET', '/users', { token: admin.token });
    const ids = res.body.data.map((x: { _id: string }) => x._id);
    expect(ids).toEqual(expect.arrayContaining([admin.user.id, inA.id, inBC.id]));
    expect(ids).not.toContain(inC.id);
    expect(ids).not.toContain(none.id);
    expect(ids).not.toContain(boss.user.id);
  });

  it('searches first name, last name, email and role names, ignoring case', async () => {
    const u = await t.createUser(['manager'], { firstName: 'Zebulon', lastName: 'Quixote', email: 'zq@corp.example' });
    for (const q of ['zebu', 'QUIXO', 'corp.EXAMPLE']) {
      const res = await t.call('GET', `/users?search=${encodeURIComponent(q)}`, { token: boss.token });
      expect(res.body.data.map((x: { _id: string }) => x._id)).toEqual([u.id]);
    }
    const byRole = await t.call('GET', '/users?search=MANAGER', { token: boss.token });
    expect(byRole.body.data.every((x: { role: string }) => x.role.includes('manager'))).toBe(true);
  });
});

describe('POST /users: create and update', () => {
  it('creates a user with the derived user name and the spec message', async () => {
    const res = await save(boss.token, form({ firstName: ' Jean Luc ', lastName: 'Picard', email: 'jl.picard@example.test' }));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('The new user has been created successfully.');
    expect(res.body.data).toMatchObject({ firstName: 'Jean Luc', userName: 'jean-luc.picard', isActive: true });
    // Where the password link went: the test app has no mail server, so it was written to the outbox.
    expect(res.body.data.passwordMail).toEqual({ to: 'jl.picard@example.test', written: true });
    const twin = await save(boss.token, form({ firstName: 'Jean Luc', lastName: 'Picard', email: 'other.jl@example.test' }));
    expect(twin.body.data.userName).toBe('jean-luc.picard2');
  });

  it('ignores a user name sent by the client and keeps it on update', async () => {
    const created = await save(boss.token, form({ firstName: 'Albert', lastName: 'Camus', userName: 'root.admin' }));
    expect(created.body.data.userName).toBe('albert.camus');
    const updated = await save(boss.token, {
      ...form(),
      _id: created.body.data._id,
      firstName: 'Alberto',
      lastName: 'Camus',
      email: created.body.data.email,
      userName: 'x.y',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.message).toBe('The user data has been updated successfully.');
    expect(updated.body.data).toMatchObject({ firstName: 'Alberto', userName: 'albert.camus' });
  });

  it.each([
    [[], 'You must select at least a role'],
    [['user', 'manager', 'admin'], 'A user cannot have more than 2 roles'],
    [['user', 'manager'], 'The only available combination of two roles is Admin & Manager'],
    [['super-admin', 'admin'], 'The only available combination of two roles is Admin & Manager'],
  ])('refuses the roles %j with the dialog message', async (roles, message) => {
    const res = await save(boss.token, form({ roles }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(message);
  });

  it('refuses unknown roles with a clear message', async () => {
    const res = await save(boss.token, form({ roles: ['root'] }));
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('Unknown role: use user, manager, admin or super-admin');
  });

  it('applies the field rules with the spec messages', async () => {
    const res = await save(boss.token, form({ firstName: 'Al', lastName: '', email: 'nope' }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Length should be 3 to 25');
    expect(res.body.data.issues).toEqual([
      { path: 'firstName', message: 'Length should be 3 to 25' },
      { path: 'lastName', message: 'Please input last name' },
      { path: 'userName', message: 'Length should be at least 8' },
      { path: 'email', message: 'Please input correct email address' },
    ]);
    const long = await save(boss.token, form({ firstName: 'x'.repeat(5000) }));
    expect(long.status).toBe(422);
    expect(long.body.message).toContain('Length should be 3 to 25');
    const shortName = await save(boss.token, form({ firstName: 'Ann', lastName: 'Lee' }));
    expect(shortName.body.message).toBe('Length should be at least 8');
  });

  it('refuses a second user with the same email', async () => {
    const first = await save(boss.token, form({ email: 'twice@example.test' }));
    expect(first.status).toBe(200);
    const second = await save(boss.token, form({ email: 'TWICE@example.test' }));
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('A user with this email address already exists.');
  });

  it('refuses forged ids and unknown badges', async () => {
    expect((await save(boss.token, { ...form(), _id: newId() })).status).toBe(404);
    const notUuid = await save(boss.token, { ...form(), _id: '1; drop table users' });
    expect(notUuid.status).toBe(422);
    const unknown = await save(boss.token, form({ admin_tags: [newId()] }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/^Unknown admin badge: /);
    const wrongType = await save(boss.token, form({ project_tags: [badges.a] }));
    expect(wrongType.body.message).toMatch(/^Unknown project badge: /);
  });

  it('sets unrestricted upload for non-users and keeps the switch for users', async () => {
    const manager = await save(boss.token, form({ roles: ['manager'], unrestrictedUpload: false }));
    expect(manager.body.data.unrestrictedUpload).toBe(true);
    const user = await save(boss.token, form({ roles: ['user'], unrestrictedUpload: true, isNoCode: true }));
    expect(user.body.data).toMatchObject({ unrestrictedUpload: true, isNoCode: true });
    const onlyDealers = await save(boss.token, form({ roles: ['user'] }));
    expect(onlyDealers.body.data.unrestrictedUpload).toBe(false);
  });
});

describe('admin-badge scope', () => {
  it('lets an admin create a User or Manager carrying one of its admin badges', async () => {
    const admin = await adminWith([badges.a]);
    const res = await save(admin.token, form({ roles: ['manager'], admin_tags: [badges.a] }));
    expect(res.status).toBe(200);
  });

  it('needs one of the admin’s badges', async () => {
    const admin = await adminWith([badges.a]);
    for (const admin_tags of [[], [badges.c]]) {
      const res = await save(admin.token, form({ admin_tags }));
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('User must have at least one of your admin badges');
    }
  });

  it('refuses an admin giving Admin or Super-Admin', async () => {
    const admin = await adminWith([badges.a]);
    for (const roles of [['admin'], ['super-admin'], ['admin', 'manager']]) {
      const res = await save(admin.token, form({ roles, admin_tags: [badges.a] }));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Only a super-admin can give the roles Admin or Super-Admin.');
    }
  });

  it('refuses an admin editing a super-admin or another admin, even sharing a badge', async () => {
    const admin = await adminWith([badges.a]);
    const sa = await member([badges.a], ['super-admin']);
    const other = await member([badges.a], ['admin']);
    for (const target of [sa, other]) {
      const res = await save(admin.token, {
        _id: target.id,
        firstName: 'Hacked',
        lastName: 'Account',
        email: target.email,
        roles: ['user'],
        admin_tags: [badges.a],
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Only a super-admin can manage an admin or a super-admin.');
    }
  });

  it('refuses an admin editing a user outside its badges', async () => {
    const admin = await adminWith([badges.a]);
    const outside = await member([badges.c]);
    const res = await save(admin.token, {
      _id: outside.id,
      firstName: outside.first_name,
      lastName: outside.last_name,
      email: outside.email,
      roles: ['user'],
      admin_tags: [badges.a, badges.c],
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You can only manage users who share one of your admin badges.');
  });

  it('lets nobody raise their own roles', async () => {
    const admin = await adminWith([badges.a]);
    const self = {
      _id: admin.user.id,
      firstName: admin.user.first_name,
      lastName: admin.user.last_name,
      email: admin.user.email,
      admin_tags: [badges.a],
    };
    const up = await save(admin.token, { ...self, roles: ['super-admin'] });
    expect(up.status).toBe(403);
    expect(up.body.message).toBe('You cannot raise your own roles.');
    const pair = await save(admin.token, { ...self, roles: ['admin', 'manager'] });
    expect(pair.body.message).toBe('You cannot raise your own roles.');
    const same = await save(admin.token, { ...self, roles: ['admin'], service: 'IT' });
    expect(same.status).toBe(200);
    expect(same.body.data.service).toBe('IT');
  });
});

describe('toggle, delete, reset', () => {
  it('de-activates users in bulk: they are refused at once, then re-activated', async () => {
    const one = await t.signedIn(['user']);
    const two = await t.signedIn(['manager']);
    const off = await t.call('POST', '/users/toggle', {
      token: boss.token,
      body: { ids: [one.user.id, two.user.id], enabled: false },
    });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe('De-activation for the selected users has been successfully turned off.');
    expect(off.body.data.ids.sort()).toEqual([one.user.id, two.user.id].sort());
    for (const u of [one, two]) {
      expect((await t.call('GET', '/users/info', { token: u.token })).body.code).toBe(50012);
      const login = await t.call('POST', '/users/login', { body: { username: u.user.user_name, password: TEST_PASSWORD } });
      expect(login.status).toBe(403);
    }
    const on = await t.call('POST', '/users/toggle', { token: boss.token, body: { ids: [one.user.id], enabled: true } });
    expect(on.body.message).toBe('Activation for the selected users has been successfully turned on.');
    expect(await t.login(one.user.user_name)).toEqual(expect.any(String));
  });

  it('refuses toggling, deleting or resetting the two-factor of one’s own account', async () => {
    const self = await t.call('POST', '/users/toggle', { token: boss.token, body: { ids: [boss.user.id], enabled: false } });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('You cannot de-activate, delete or reset the two-factor authentication of your own account.');
    expect((await t.call('DELETE', `/users?ids=${boss.user.id}`, { token: boss.token })).status).toBe(403);
    expect((await t.call('POST', '/users/reset-tfa', { token: boss.token, body: { _id: boss.user.id } })).status).toBe(403);
  });

  it('applies the scope to toggle and delete, for every id named', async () => {
    const admin = await adminWith([badges.a]);
    const inside = await member([badges.a]);
    const outside = await member([badges.c]);
    const res = await t.call('POST', '/users/toggle', {
      token: admin.token,
      body: { ids: [inside.id, outside.id], enabled: false },
    });
    expect(res.status).toBe(403);
    const still = await t.ctx.db.kysely.selectFrom('users').select('is_active').where('id', '=', inside.id).executeTakeFirst();
    expect(still?.is_active).toBe(true);
    expect((await t.call('DELETE', `/users?ids=${outside.id}`, { token: admin.token })).status).toBe(403);
    expect((await t.call('DELETE', `/users?ids=${inside.id}`, { token: admin.token })).status).toBe(200);
  });

  it('deletes one or several users with the spec messages; a deleted user is cut off', async () => {
    const one = await t.signedIn(['user']);
    const a = await t.createUser(['user']);
    const b = await t.createUser(['user']);
    const single = await t.call('DELETE', `/users?ids=${one.user.id}`, { token: boss.token });
    expect(single.body.message).toBe('User deleted successfully');
    expect((await t.call('GET', '/users/info', { token: one.token })).body.code).toBe(50008);
    const many = await t.call('DELETE', `/users?ids=${a.id},${b.id}`, { token: boss.token });
    expect(many.body.message).toBe('Selected users deleted successfully.');
    expect(many.body.data.ids.sort()).toEqual([a.id, b.id].sort());
  });

  it('refuses malformed and unknown ids', async () => {
    expect((await t.call('DELETE', '/users?ids=abc', { token: boss.token })).status).toBe(422);
    expect((await t.call('DELETE', '/users', { token: boss.token })).status).toBe(422);
    expect((await t.call('DELETE', `/users?ids=${newId()}`, { token: boss.token })).status).toBe(404);
    expect((await t.call('POST', '/users/reset-password', { token: boss.token, body: { _id: newId() } })).status).toBe(404);
  });
});

describe('GET /users/pipelinesFor', () => {
  async function pipeline(name: string, familyId?: string, version = 1) {
    return t.services.pipelines.create({ name, isMaster: false, dataSources: [], dataSinks: [], familyId, version });
  }

  it('answers every pipeline family and the user’s assignments with their active flags', async () => {
    const alpha1 = await pipeline('alpha');
    const alphaFamily = (
      await t.ctx.db.kysely.selectFrom('pipelines').select('family_id').where('id', '=', alpha1).executeTakeFirstOrThrow()
    ).family_id;
    const alpha2 = await pipeline('Alpha v2', alphaFamily, 2);
    const beta = await pipeline('beta');
    const betaFamily = (
      await t.ctx.db.kysely.selectFrom('pipelines').select('family_id').where('id', '=', beta).executeTakeFirstOrThrow()
    ).family_id;

    const created = await save(
      boss.token,
      form({ pipelinePermissions: { [alpha2]: { isActive: false }, [betaFamily]: { isActive: true } } }),
    );
    expect(created.status).toBe(200);
    expect(created.body.data.pipelinePermissions).toEqual({
      [alphaFamily]: { isActive: false },
      [betaFamily]: { isActive: true },
    });

    const res = await t.call('GET', `/users/pipelinesFor?id=${created.body.data._id}`, { token: boss.token });
    expect(res.status).toBe(200);
    const available = res.body.data.availablePipelines;
    expect(available.map((p: { _id: string }) => p._id)).toEqual(expect.arrayContaining([alphaFamily, betaFamily]));
    expect(available.find((p: { _id: string }) => p._id === alphaFamily)).toMatchObject({ name: 'Alpha v2', version: 2 });
    const names = available.map((p: { name: string }) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(res.body.data.userPipelines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ _id: alphaFamily, isActive: false }),
        expect.objectContaining({ _id: betaFamily, isActive: true }),
      ]),
    );
    expect(res.body.data.userPipelines).toHaveLength(2);

    const promoted = await save(boss.token, {
      ...form(),
      _id: created.body.data._id,
      firstName: created.body.data.firstName,
      lastName: created.body.data.lastName,
      email: created.body.data.email,
      roles: ['manager'],
    });
    expect(promoted.body.data.pipelinePermissions).toEqual({});
  });

  it('refuses unknown pipelines and users outside the scope', async () => {
    const res = await save(boss.token, form({ pipelinePermissions: { [newId()]: { isActive: true } } }));
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^Unknown pipeline: /);
    const admin = await adminWith([badges.a]);
    const outside = await member([badges.c]);
    const scoped = await t.call('GET', `/users/pipelinesFor?id=${outside.id}`, { token: admin.token });
    expect(scoped.status).toBe(403);
  });
});

describe('users service', () => {
  it('answers users to other modules without their password hash, two-factor secret or recovery codes', async () => {
    const created = await t.createUser(['user']);
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ tfa_secret: 'sealed', recovery_codes: ['hash'] })
      .where('id', '=', created.id)
      .execute();
    const secretKeys = ['password_hash', 'tfa_secret', 'recovery_codes', 'tfa_last_step'];
    const read = await t.services.users.byId(created.id);
    const byEmail = await t.services.users.byEmail(created.email.toUpperCase());
    for (const user of [created, read, byEmail]) {
      expect(user).toMatchObject({ id: created.id, user_name: created.user_name, roles: ['user'] });
      for (const key of secretKeys) expect(user).not.toHaveProperty(key);
    }
    const credentials = await t.services.users.credentials({ userName: created.user_name.toUpperCase() });
    expect(credentials).toMatchObject({
      user: { id: created.id },
      passwordHash: expect.stringMatching(/^\$argon2id\$/),
      tfaSecret: 'sealed',
    });
    expect(await t.services.users.credentials({ id: newId() })).toBeUndefined();
    expect(t.services.users).not.toHaveProperty('repo');
  });
});
