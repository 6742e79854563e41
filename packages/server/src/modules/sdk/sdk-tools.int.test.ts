import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';

// The SDK editor's calls beyond the document: the explorer, usages, the vulnerability report over
// the operator's OSV advisory set, and npm modules from the allow-list (hostile names refused).

const FIXTURE = path.join(import.meta.dirname, '../../../../../docs/examples/osv-npm-advisories.json');
const DAYJS = (createRequire(import.meta.url)('dayjs/package.json') as { version: string }).version;

let t: TestApp;
let boss: string;
let advisories: string;
beforeAll(async () => {
  advisories = path.join(fs.mkdtempSync(path.join(import.meta.dirname, '../../../../../.advisories-')), 'osv.json');
  fs.copyFileSync(FIXTURE, advisories);
  t = await createTestApp({ sdk: { modules: ['dayjs', 'semver', 'fastify'], advisories } });
  boss = (await t.signedIn(['super-admin'])).token;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(path.dirname(advisories), { recursive: true, force: true });
});

const save = (body: Record<string, unknown>, token = boss) => t.call('POST', '/sdk', { token, body });
const report = (id: string, refresh = false) =>
  t.call('GET', `/sdk/vulnerabilities?id=${id}${refresh ? '&refresh=true' : ''}`, { token: boss });

describe('SDK function modules', () => {
  it('takes a module of the allow-list at the version installed, filling an empty version with it', async () => {
    const res = await save({ functionName: 'year', modules: [{ name: 'dayjs', version: '' }] });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data.modules).toEqual([{ name: 'dayjs', version: DAYJS }]);
  });

  it('refuses a module that is not on the allow-list, or not at the version installed, naming it', async () => {
    const off = await save({
      functionName: 'offList',
      modules: [
        { name: 'dayjs', version: DAYJS },
        { name: 'left-pad', version: '1.3.0' },
      ],
    });
    expect([off.status, off.body.message]).toEqual([422, "Module left-pad is not on the server's allow-list of SDK modules"]);
    expect(off.body.data.issues).toEqual([{ path: 'modules.1.name', message: off.body.message }]);
    const old = await save({ functionName: 'oldDayjs', modules: [{ name: 'dayjs', version: '1.0.0' }] });
    expect([old.status, old.body.message]).toEqual([
      422,
      `Module dayjs: version 1.0.0 is not the one installed on the server (${DAYJS})`,
    ]);
    expect(old.body.data.issues[0].path).toBe('modules.0.version');
    expect(
      (await t.call('GET', '/sdk', { token: boss })).body.data.map((f: { functionName: string }) => f.functionName),
    ).not.toContain('offList');
  });

  it.each([
    ['../../../etc/passwd', '1.0.0', 'name'],
    ['/usr/lib/node_modules/npm', '1.0.0', 'name'],
    ['file:../../secrets', '1.0.0', 'name'],
    ['https://evil.example/x.tgz', '1.0.0', 'name'],
    ['git+ssh://git@github.com/evil/x.git', '1.0.0', 'name'],
    ['evil/x', '1.0.0', 'name'],
    ['dayjs', 'file:../../x', 'version'],
    ['dayjs', 'https://evil.example/dayjs.tgz', 'version'],
    ['dayjs', 'github:evil/dayjs#main', 'version'],
    ['dayjs', '^1.0.0', 'version'],
  ])('refuses the path, URL or git spec %s @ %s, naming it', async (name, version, field) => {
    const res = await save({ functionName: 'hostile', modules: [{ name, version }] });
    expect(res.status).toBe(422);
    expect(res.body.data.issues[0].path).toBe(`modules.0.${field}`);
    expect(res.body.data.issues[0].message).toContain(field === 'name' ? JSON.stringify(name) : JSON.stringify(version));
  });

  it('runs a function using its module, required by name, and only the modules it lists', async () => {
    const fn = await save({
      functionName: 'yearOf',
      jsCode: "async function (date) {\n  const dayjs = require('dayjs');\n  return dayjs(date).format('YYYY/MM');\n}",
      modules: [{ name: 'dayjs', version: DAYJS }],
    });
    expect(fn.status, fn.body.message).toBe(200);
    const run = await t.call('POST', '/sdk/yearOf/execute', { token: boss, body: { payload: ['2026-03-01'] } });
    expect([run.status, run.body.message, run.body.data?.output]).toEqual([200, 'success', '2026/03']);
    await save({ functionName: 'sneaky', jsCode: "function () { return typeof require('semver'); }" });
    const sneaky = await t.call('POST', '/sdk/sneaky/execute', { token: boss, body: { payload: [] } });
    expect([sneaky.status, sneaky.body.message]).toEqual([
      422,
      'Execute error : SDK function "sneaky": Module "semver" is not available in this SDK function',
    ]);
    await save({ functionName: 'builtins', jsCode: "function () { return require('fs'); }", modules: [] });
    const builtins = await t.call('POST', '/sdk/builtins/execute', { token: boss, body: { payload: [] } });
    expect(builtins.body.message).toBe(
      'Execute error : SDK function "builtins": Module "fs" is not available in this SDK function',
    );
    // A component calling it: the module is bundled into the component's program too.
    const c = await t.services.components.create({ name: 'Dated', outputs: [{ name: 'y' }], sdk: [fn.body.data._id] });
    const saved = await t.call('POST', '/components', {
      token: boss,
      body: {
        _id: c._id,
        sys_version: c.sys_version,
        name: 'Dated',
        sdk: [fn.body.data._id],
        jsCode: "ctx.output.y = await sdk.yearOf('2025-12-31');",
      },
    });
    expect(saved.status, saved.body.message).toBe(200);
    const ran = await t.call('POST', `/components/${c._id}/execute`, { token: boss, body: {} });
    expect(ran.body.data?.output, ran.body.message).toEqual({ y: '2025/12' });
  });

  it("answers no module for names an object's prototype holds, and leaves the library out of reach", async () => {
    const code = [
      'function () {',
      "  const names = ['constructor', '__proto__', 'hasOwnProperty', 'toString'];",
      '  const refused = names.filter((n) => { try { require(n); return false; } catch (e) { return /is not available/.test(e.message); } });',
      "  return [refused.length, typeof __gdb, typeof __code, typeof models, typeof require('dayjs')];",
      '}',
    ].join('\n');
    expect((await save({ functionName: 'prying', jsCode: code, modules: [{ name: 'dayjs', version: '' }] })).status).toBe(200);
    const run = await t.call('POST', '/sdk/prying/execute', { token: boss, body: { payload: [] } });
    expect(run.body.data?.output, run.body.message).toEqual([4, 'undefined', 'undefined', 'undefined', 'function']);
  });

  it('refuses a run of a module the server cannot bundle for the sandbox, naming it', async () => {
    const fn = await save({
      functionName: 'nodeOnly',
      jsCode: "function () { return require('fastify'); }",
      modules: [{ name: 'fastify', version: '' }],
    });
    expect(fn.status, fn.body.message).toBe(200);
    const run = await t.call('POST', '/sdk/nodeOnly/execute', { token: boss, body: { payload: [] } });
    expect(run.status).toBe(422);
    expect(run.body.message).toMatch(
      /^Execute error : SDK function "nodeOnly" v1: Module fastify cannot be bundled for the sandbox: /,
    );
  });
});

describe('GET /sdk/vulnerabilities', () => {
  it("reports a module an advisory affects, and 'No vulnerable packages' when the check found none", async () => {
    const fn = (await save({ functionName: 'withDayjs', modules: [{ name: 'dayjs', version: '' }] })).body.data;
    const res = await report(fn._id);
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data).toMatchObject({
      _id: fn._id,
      checked: true,
      error: null,
      message: `1 vulnerable package: dayjs@${DAYJS}`,
      modules: [{ name: 'dayjs', version: DAYJS }],
      vulnerable: [
        {
          name: 'dayjs',
          version: DAYJS,
          advisories: [{ id: 'DEMO-2026-0001', severity: 'LOW', fixed: '2.0.0', aliases: [], url: null }],
        },
      ],
      advisories: { source: advisories, count: 3 },
    });
    const plain = (await save({ functionName: 'noModules' })).body.data;
    expect((await report(plain._id)).body.data).toMatchObject({
      checked: true,
      vulnerable: [],
      message: 'No vulnerable packages',
    });
    const fresh = (await save({ functionName: 'freshSemver', modules: [{ name: 'semver', version: '' }] })).body.data;
    expect((await report(fresh._id)).body.data).toMatchObject({
      checked: true,
      vulnerable: [],
      message: 'No vulnerable packages',
    });
  });

  it('reads the advisory set again only on a recheck, and says so when no advisory data could be read', async () => {
    const fn = (await save({ functionName: 'rechecked', modules: [{ name: 'semver', version: '' }] })).body.data;
    const installed = fn.modules[0].version;
    const before = fs.readFileSync(advisories, 'utf8');
    const entry = {
      id: 'GHSA-test-semver',
      summary: 'Everything is wrong',
      affected: [{ package: { ecosystem: 'npm', name: 'semver' }, versions: [installed] }],
    };
    fs.writeFileSync(advisories, JSON.stringify({ vulns: [entry] }));
    expect((await report(fn._id)).body.data.message).toBe('No vulnerable packages');
    const rechecked = (await report(fn._id, true)).body.data;
    expect(rechecked).toMatchObject({ checked: true, message: `1 vulnerable package: semver@${installed}` });
    expect(rechecked.vulnerable[0].advisories[0]).toEqual({
      id: 'GHSA-test-semver',
      summary: 'Everything is wrong',
      severity: null,
      aliases: [],
      fixed: null,
      url: null,
    });
    fs.writeFileSync(advisories, '{ not json');
    const unreadable = (await report(fn._id, true)).body.data;
    expect(unreadable).toMatchObject({ checked: false, vulnerable: [] });
    expect(unreadable.message).toMatch(/^No advisory data could be read: /);
    expect(unreadable.message).not.toContain('No vulnerable packages');
    fs.writeFileSync(advisories, before);
    expect((await report(fn._id, true)).body.data.checked).toBe(true);
  });

  it('says when no advisory set is configured', async () => {
    const bare = await createTestApp();
    try {
      const token = (await bare.signedIn(['super-admin'])).token;
      const fn = (await bare.call('POST', '/sdk', { token, body: { functionName: 'lonely' } })).body.data;
      const res = (await bare.call('GET', `/sdk/vulnerabilities?id=${fn._id}`, { token })).body.data;
      expect(res).toMatchObject({ checked: false, error: 'no advisory set is configured (SDK_ADVISORIES)' });
      expect(res.message).toBe('No advisory data could be read: no advisory set is configured (SDK_ADVISORIES)');
    } finally {
      await bare.close();
    }
  });
});

describe('GET /sdk/usages and GET /sdk/explorer', () => {
  it('lists the components calling a function, with name, version and the address to open', async () => {
    const fn = (await save({ functionName: 'used' })).body.data;
    const c = await t.services.components.create({ name: 'Caller', sdk: [fn._id] });
    const res = await t.call('GET', `/sdk/usages?id=${fn._id}`, { token: boss });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { _id: c._id, type: 'component', name: 'Caller', version: 1, vLocked: false, url: `/manage/components?id=${c._id}` },
    ]);
    expect((await t.call('GET', `/sdk/usages?id=${newId()}`, { token: boss })).status).toBe(404);
  });

  it('answers the explorer tree with the functions and their versions', async () => {
    const fn = (await save({ functionName: 'listedInTree' })).body.data;
    const res = await t.call('GET', '/sdk/explorer', { token: boss });
    expect(res.status).toBe(200);
    const leaves = JSON.stringify(res.body.data);
    expect(leaves).toContain(`"label":"listedInTree"`);
    expect(leaves).toContain(fn._id);
  });

  it('leaves the documentation page (managers too) what it shows: documentation, input, output, error, version, badges', async () => {
    const fn = await save({
      functionName: 'documentedTool',
      documentation: 'Adds VAT.',
      input: 'price, rate',
      output: 'the price with VAT',
      error: 'none',
      modules: [{ name: 'dayjs', version: '' }],
    });
    const { token } = await t.signedIn(['manager']);
    const docs = await t.call('GET', '/components/documentation', { token });
    expect(docs.status).toBe(200);
    const entry = docs.body.data.find((f: { _id: string }) => f._id === fn.body.data._id);
    expect(entry).toMatchObject({
      functionName: 'documentedTool',
      documentation: 'Adds VAT.',
      input: 'price, rate',
      output: 'the price with VAT',
      error: 'none',
      version: 1,
      vLocked: false,
      modules: [{ name: 'dayjs', version: DAYJS }],
      tags: { read: [], write: [] },
    });
    expect(entry.jsCode).toBeUndefined();
  });

  it('is for super-admins only', async () => {
    const fn = (await save({ functionName: 'guarded' })).body.data;
    for (const role of ['manager', 'admin', 'user'] as const) {
      const { token } = await t.signedIn([role]);
      for (const url of ['/sdk/explorer', `/sdk/usages?id=${fn._id}`, `/sdk/vulnerabilities?id=${fn._id}`]) {
        expect((await t.call('GET', url, { token })).status, `${role} ${url}`).toBe(403);
      }
    }
  });
});
