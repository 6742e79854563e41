import { API_ACCESS, allows } from '@gdb/shared/api/access';
import { ROLES, type Role } from '@gdb/shared/auth/roles';
import { afterAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp } from '../../../test/test-app.ts';
import { newId } from '../ids.ts';

// Built at collection time so that every registered route becomes its own test case.
const t = await createTestApp();
afterAll(async () => {
  await t.close();
});

const apiRoutes = t.routes.filter((r) => r.url.startsWith(`${BASE}/`) && !r.url.startsWith(`${BASE}/docs`));
const userNames = new Map<Role, string>();
for (const role of ROLES) userNames.set(role, (await t.createUser([role])).user_name);
const tokens = new Map<Role, string>();

async function tokenOf(role: Role, fresh = false): Promise<string> {
  const known = tokens.get(role);
  if (known && !fresh) return known;
  const token = await t.login(userNames.get(role) ?? '');
  tokens.set(role, token);
  return token;
}

/** Calls a route as a role: path parameters get a random id, bodies are empty objects. */
async function callAs(method: string, url: string, role: Role | null) {
  const path = url.slice(BASE.length).replace(/:[A-Za-z0-9_]+/g, () => newId());
  const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) ? {} : undefined;
  if (!role) return t.call(method, path, { body });
  let res = await t.call(method, path, { body, token: await tokenOf(role) });
  // A route that ended the caller's session (logout) is not a refusal: sign in again and retry.
  if (res.status === 401 && res.body.code === 50012) res = await t.call(method, path, { body, token: await tokenOf(role, true) });
  return res;
}

describe('every registered API route has a policy', () => {
  it('leaves no route without an entry in the shared table', () => {
    expect(apiRoutes.length).toBeGreaterThan(10);
    expect(t.unprotectedRoutes).toEqual([]);
    expect(apiRoutes.filter((r) => r.access === undefined).map((r) => r.key)).toEqual([]);
  });

  it('names in the table only routes that are registered', () => {
    const registered = new Set(t.routes.map((r) => r.key));
    expect(Object.keys(API_ACCESS).filter((key) => !registered.has(key))).toEqual([]);
  });
});

describe.each(apiRoutes.map((r) => ({ ...r, label: r.key })))('$label', ({ method, url, access }) => {
  it.each(ROLES)('as %s: 403 exactly where the table forbids', async (role) => {
    if (access === undefined) throw new Error('route without a policy');
    const res = await callAs(method, url, role);
    if (access === 'public' || allows(access, [role])) {
      expect(res.status, `${res.status} ${res.body.message}`).not.toBe(403);
      expect(res.status, `${res.status} ${res.body.message}`).not.toBe(401);
    } else {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('You are not allowed to do this.');
    }
  });

  it('without a token: 401 unless public', async () => {
    const res = await callAs(method, url, null);
    if (access === 'public') expect(res.status).not.toBe(401);
    else {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(50008);
    }
  });
});
