import { CLOSED_DOCUMENT } from '@gdb/shared/activity/activity.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let boss: { token: string; name: string };
let admin: string;

const post = (url: string, body: unknown, token = boss.token) => t.call('POST', url, { token, body });
const activity = (query: string, token = boss.token) => t.call('GET', `/activity?${query}`, { token });
type Entry = { kind: string; actor: string; documentName: string | null; documentVersion: number | null; details: object };

beforeAll(async () => {
  t = await createTestApp();
  const b = await t.signedIn(['super-admin']);
  boss = { token: b.token, name: b.user.user_name };
  admin = (await t.signedIn(['admin'])).token;
});
afterAll(async () => {
  await t.close();
});

describe('the activity record', () => {
  it('records who saved, locked, made a new version of and deleted which document version', async () => {
    const name = `Audited ${newId()}`;
    const made = await post('/schemas', { name, folder: null, jsonSchema: { type: 'object' } });
    expect(made.status, made.body.message).toBe(200);
    const v1 = made.body.data;
    const saved = await post('/schemas', {
      _id: v1._id,
      name,
      version: 1,
      sys_version: v1.sys_version,
      jsonSchema: { type: 'object', properties: {} },
    });
    expect(saved.status, saved.body.message).toBe(200);
    expect((await post('/schemas/version/lock', { id: v1._id })).status).toBe(200);
    const v2 = (await post('/schemas/version/new', { id: v1._id })).body.data;
    expect((await post('/schemas/version/delete', { id: v2._id })).status).toBe(200);
    const res = await activity(`document=${encodeURIComponent(name)}`);
    expect(res.status, res.body.message).toBe(200);
    const entries: Entry[] = res.body.data.entries;
    expect(entries.map((e) => [e.kind, e.documentVersion, e.actor, e.documentName])).toEqual([
      ['document-deleted', 2, boss.name, name],
      ['document-versioned', 2, boss.name, name],
      ['document-locked', 1, boss.name, name],
      ['document-saved', 1, boss.name, name],
    ]);
    expect((await activity(`document=${encodeURIComponent(name)}&kind=document-locked`)).body.data.total).toBe(1);
  });

  it("records a change of a user's roles and badges, from what to what", async () => {
    const created = await post('/users', {
      firstName: 'Rolf',
      lastName: `Change${newId().slice(-6)}`,
      email: `r.${newId()}@example.test`,
      roles: ['user'],
    });
    expect(created.status, created.body.message).toBe(200);
    const u = created.body.data;
    const updated = await post('/users', {
      _id: u._id,
      firstName: u.firstName,
      lastName: u.lastName,
      email: u.email,
      roles: ['manager'],
    });
    expect(updated.status, updated.body.message).toBe(200);
    const res = await activity('kind=user-roles');
    const mine = res.body.data.entries.filter((e: { targetUser: string }) => e.targetUser === u.userName);
    expect(mine.map((e: Entry) => e.details)).toEqual([
      { from: ['user'], to: ['manager'], targetUserName: u.userName },
      { from: [], to: ['user'], targetUserName: u.userName },
    ]);
  });

  it('names to an administrator only the documents their badges open', async () => {
    const name = `Closed ${newId()}`;
    const doc = (await post('/schemas', { name, folder: null, jsonSchema: { type: 'object' } })).body.data;
    const secret = (await post('/tags', { name: `Secret ${newId()}`, type: 'project' })).body.data._id;
    const closed = await post('/tags/update-document-tags', {
      id: doc._id,
      type: 'schema',
      tags: { read: [[secret]], write: [[secret]] },
    });
    expect(closed.status, closed.body.message).toBe(200);
    await post('/schemas/version/lock', { id: doc._id });
    const seen = await activity('kind=document-locked&limit=200', admin);
    expect(seen.status).toBe(200);
    const names = seen.body.data.entries.map((e: Entry) => e.documentName);
    expect(names).not.toContain(name);
    expect(names).toContain(CLOSED_DOCUMENT);
    // Searching by the name finds nothing: a closed document is not even counted.
    const probe = await activity(`document=${encodeURIComponent(name)}`, admin);
    expect(probe.body.data).toEqual({ total: 0, entries: [] });
    expect((await activity(`document=${encodeURIComponent(name)}`)).body.data.total).toBe(1);
    const user = await t.signedIn(['user']);
    expect((await activity('', user.token)).status).toBe(403);
    const manager = await t.signedIn(['manager']);
    expect((await t.call('GET', '/activity/export', { token: manager.token })).status).toBe(403);
  });

  it('exports what the filters keep as CSV', async () => {
    const name = `Exported ${newId()}`;
    const doc = (await post('/schemas', { name, folder: null, jsonSchema: { type: 'object' } })).body.data;
    await post('/schemas/version/lock', { id: doc._id });
    const res = await t.app.inject({
      method: 'GET',
      url: `${BASE}/activity/export?document=${encodeURIComponent(name)}`,
      headers: { 'x-token': boss.token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('When,Who,What,Document kind,Document,Version,Upload,User,Details');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${boss.name},Locked,schema,${name},1,,,`);
  });
});
