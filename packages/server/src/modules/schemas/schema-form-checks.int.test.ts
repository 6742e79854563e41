// A manager's data model must not act with its viewer's rights: its form `ajax` rule may only ask
// a check service listed in FORM_CHECK_URLS, with a GET. Written as the manager would try it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { loadConfig } from '../../platform/config.ts';
import { newId } from '../../platform/ids.ts';

const CHECKS = 'https://checks.example.test/names/';
let t: TestApp;
let bare: TestApp;
let manager: string;
let superAdmin: string;
beforeAll(async () => {
  t = await createTestApp({ formCheckUrls: [CHECKS] });
  bare = await createTestApp();
  manager = (await t.signedIn(['manager'])).token;
  superAdmin = (await t.signedIn(['super-admin'])).token;
});
afterAll(async () => {
  await t.close();
  await bare.close();
});

const unique = (name: string) => `${name} ${newId().slice(-8)}`;
const withRule = (ajax: unknown) => ({
  type: 'object',
  properties: { userName: { type: 'string', title: 'User name', rules: { ajax } } },
});
const save = (app: TestApp, token: string, body: Record<string, unknown>) => app.call('POST', '/schemas', { token, body });

async function namedModels(name: string): Promise<number> {
  const listed = (await t.call('GET', '/schemas/list', { token: superAdmin })).body.data as { name: string }[];
  return listed.filter((s) => s.name === name).length;
}

describe("a data model's ajax rule", () => {
  it('is refused when it would create a super-admin through the API with the viewer’s token, naming the rule’s path', async () => {
    const name = unique('Escalating model');
    const escalating = withRule({
      value: {
        remoteUrl: '/users/create',
        method: 'post',
        paramName: 'userName',
        otherParams: { firstName: 'Mal', lastName: 'Lory', email: 'mal@example.test', roles: ['super-admin'] },
      },
      options: { delay: 10 },
    });
    const res = await save(t, manager, { name, folder: null, jsonSchema: escalating });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The ajax rule at properties.userName.rules.ajax: An ajax rule is sent only as GET, not post');
    expect(res.body.data.issues).toEqual([{ path: 'properties.userName.rules.ajax', message: res.body.message }]);
    expect(await namedModels(name)).toBe(0);
  });

  it('is refused for any address but a listed check service, however it is spelled', async () => {
    const notListed = (url: string) =>
      `The ajax rule at properties.userName.rules.ajax: An ajax rule may only ask a check service listed in FORM_CHECK_URLS: ${url} is not one`;
    const hostile = [
      '/users',
      '/gdb-importer/v1/users?roles=super-admin',
      'https://checks.example.test/names/../../gdb-importer/v1/users',
      'https://checks.example.test.attacker.test/names/free',
      'https://checks.example.test@attacker.test/names/free',
      'https://user:pw@checks.example.test/names/free',
      'http://checks.example.test/names/free',
      'https://checks.example.test/namesake',
    ];
    for (const remoteUrl of hostile) {
      const res = await save(t, manager, { name: unique('Hostile'), folder: null, jsonSchema: withRule({ remoteUrl }) });
      expect(res.status, remoteUrl).toBe(400);
      expect(res.body.message).toBe(notListed(remoteUrl));
    }
  });

  it('is refused as an expression, as another method, and wherever a field may sit', async () => {
    const fixed = 'An ajax rule must name its check service as a fixed remoteUrl';
    const cases: [unknown, string, string][] = [
      [withRule({ value: 'dx: {{$root.next}}' }), 'properties.userName.rules.ajax', fixed],
      [
        withRule({ remoteUrl: `${CHECKS}free`, method: 'DELETE' }),
        'properties.userName.rules.ajax',
        'An ajax rule is sent only as GET, not DELETE',
      ],
      [
        {
          type: 'object',
          definitions: { who: { type: 'string', rules: { ajax: { remoteUrl: '/users' } } } },
          properties: { a: { $ref: '#/definitions/who' } },
        },
        'definitions.who.rules.ajax',
        'An ajax rule may only ask a check service listed in FORM_CHECK_URLS: /users is not one',
      ],
      [
        {
          type: 'object',
          properties: { list: { type: 'array', items: { type: 'string', rules: { ajax: { value: { remoteUrl: 42 } } } } } },
        },
        'properties.list.items.rules.ajax',
        fixed,
      ],
    ];
    for (const [jsonSchema, path, problem] of cases) {
      const res = await save(t, manager, { name: unique('Hidden'), folder: null, jsonSchema });
      expect(res.status, path).toBe(400);
      expect(res.body.message).toBe(`The ajax rule at ${path}: ${problem}`);
    }
  });

  it('is refused on a draft saved over a harmless one', async () => {
    const first = await save(t, manager, {
      name: unique('Draft'),
      folder: null,
      jsonSchema: withRule({ remoteUrl: `${CHECKS}free` }),
    });
    expect(first.status, first.body.message).toBe(200);
    const { _id, version, sys_version, name } = first.body.data;
    const res = await save(t, manager, {
      _id,
      version,
      sys_version,
      name,
      folder: null,
      jsonSchema: withRule({ remoteUrl: '/users' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.data.issues[0].path).toBe('properties.userName.rules.ajax');
    const stored = await t.call('GET', `/schemas/find?id=${_id}`, { token: manager });
    expect(stored.body.data.jsonSchema.properties.userName.rules.ajax).toEqual({ remoteUrl: `${CHECKS}free` });
  });

  it('is saved when it asks a listed check service with a GET, and the web app learns the list', async () => {
    const rule = { value: { remoteUrl: `${CHECKS}free`, method: 'get', resField: 'free' }, options: { delay: 200 } };
    const res = await save(t, manager, { name: unique('Checked'), folder: null, jsonSchema: withRule(rule) });
    expect(res.status, res.body.message).toBe(200);
    const info = await t.call('GET', '/users/info', { token: manager });
    expect(info.body.data.formCheckUrls).toEqual([CHECKS]);
  });

  it('is refused for every address when no check service is listed (the default)', async () => {
    const token = (await bare.signedIn(['super-admin'])).token;
    const res = await save(bare, token, {
      name: unique('Any'),
      folder: null,
      jsonSchema: withRule({ remoteUrl: `${CHECKS}free` }),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `The ajax rule at properties.userName.rules.ajax: An ajax rule may only ask a check service listed in FORM_CHECK_URLS: ${CHECKS}free is not one`,
    );
    expect((await bare.call('GET', '/users/info', { token })).body.data.formCheckUrls).toEqual([]);
  });

  it('asks only services the browser may reach: the list is in the page’s connect-src, and a loose entry stops the start', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/users/info`, headers: { 'x-token': manager } });
    expect(String(res.headers['content-security-policy'])).toContain(`connect-src 'self' ${CHECKS};`);
    const start = (entries: string) => () => loadConfig({ FORM_CHECK_URLS: entries });
    expect(start('https://checks.example.test/names')).toThrow(
      "FORM_CHECK_URLS: https://checks.example.test/names must end with / (a prefix of the check service's URLs)",
    );
    expect(start('/names/')).toThrow('FORM_CHECK_URLS: /names/ is not an absolute URL');
    expect(start('javascript:alert(1)/')).toThrow('FORM_CHECK_URLS: javascript:alert(1)/ is not an http or https URL');
    expect(loadConfig({ FORM_CHECK_URLS: ` ${CHECKS} , https://other.example.test ` }).formCheckUrls).toEqual([
      CHECKS,
      'https://other.example.test/',
    ]);
    expect(loadConfig({}).formCheckUrls).toEqual([]);
  });
});
