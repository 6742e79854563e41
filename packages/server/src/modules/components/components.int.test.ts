import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPipeline, superAdmin } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { loadConfig } from '../../platform/config.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let boss: string;
let manager: string;
beforeAll(async () => {
  t = await createTestApp({ runtime: { ...loadConfig({}).runtime, timeoutMs: 1500, memoryMiB: 64, poolSize: 2 } });
  boss = (await t.signedIn(['super-admin'])).token;
  manager = (await t.signedIn(['manager'])).token;
});
afterAll(async () => {
  await t.close();
});

const save = (body: Record<string, unknown>, token = manager) => t.call('POST', '/components', { token, body });

async function saved(body: Record<string, unknown>): Promise<{ _id: string; [k: string]: unknown }> {
  const created = await save({ name: body.name, folder: null });
  expect(created.status).toBe(200);
  const res = await save({ ...body, _id: created.body.data._id, sys_version: created.body.data.sys_version });
  expect(res.status, res.body.message).toBe(200);
  return res.body.data;
}

const execute = (id: string, body: Record<string, unknown>, token = manager) =>
  t.call('POST', `/components/${id}/execute`, { token, body });

describe('component documents', () => {
  it('creates a component from a name and a folder, with the defaults of docs/product.md §16.1', async () => {
    const folder = newId();
    const res = await save({ name: 'New one', folder });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Component saved');
    expect(res.body.data).toMatchObject({
      _id: expect.any(String),
      name: 'New one',
      folder,
      version: 1,
      vLocked: false,
      read_only: false,
      write_access: true,
      kind: 'instruction',
      testPayload: {},
      testContext: {},
      inputs: [],
      outputs: [],
      instances: [],
      links: [],
      jsCode: '',
      sdk: [],
      sys_version: 1,
    });
  });

  it('saves the full body; links take the data models of the ports they join', async () => {
    const row = await t.services.schemas.create({ name: 'Row', jsonSchema: { type: 'object' } });
    const out = await t.services.schemas.create({ name: 'Out', jsonSchema: { type: 'object' } });
    const leaf = await saved({
      name: 'Leaf',
      kind: 'instruction',
      inputs: [{ name: 'in', inputSchema: row._id }],
      outputs: [{ name: 'out', outputSchema: out._id }],
      jsCode: 'ctx.output.out = ctx.input.in;',
    });
    const flow = await saved({
      name: 'Flow',
      kind: 'workflow',
      inputs: [{ name: 'rows', inputSchema: row._id, isFork: true }],
      outputs: [{ name: 'rows', outputSchema: '', isJoin: true }],
      instances: [{ name: 'leaf', instanceOf: leaf._id }],
      links: [
        { name: 'l1', fromInstance: '', fromPort: 'rows', toInstance: 'leaf', toPort: 'in' },
        { name: 'l2', fromInstance: 'leaf', fromPort: 'out', toInstance: null, toPort: 'rows', jsCode: 'output = input;' },
      ],
    });
    expect(flow.sys_version).toBe(2);
    expect(flow.dependencies).toEqual([leaf._id]);
    expect(flow.inputs).toEqual([{ name: 'rows', inputSchema: row._id, isJoin: false, isFork: true, inputIsJoin: false }]);
    expect(flow.outputs).toEqual([{ name: 'rows', outputSchema: null, isJoin: true, isFork: false }]);
    expect(flow.links).toEqual([
      {
        name: 'l1',
        fromInstance: '',
        fromPort: 'rows',
        toInstance: 'leaf',
        toPort: 'in',
        jsCode: 'output = input;',
        inputSchema: row._id,
        outputSchema: row._id,
      },
      {
        name: 'l2',
        fromInstance: 'leaf',
        fromPort: 'out',
        toInstance: '',
        toPort: 'rows',
        jsCode: 'output = input;',
        inputSchema: out._id,
        outputSchema: null,
      },
    ]);
    const found = await t.call('GET', `/components/find?id=${flow._id}`, { token: manager });
    expect(found.body.data).toEqual(flow);
  });

  it('lists components for pickers and answers several by ids, in the order asked', async () => {
    const a = await saved({ name: 'aaa list', kind: 'function' });
    const b = await saved({ name: 'BBB list', kind: 'workflow' });
    const list = await t.call('GET', '/components/list', { token: manager });
    expect(list.status).toBe(200);
    const names = list.body.data.map((c: { name: string }) => c.name);
    expect(names.indexOf('aaa list')).toBeLessThan(names.indexOf('BBB list'));
    expect(list.body.data.find((c: { _id: string }) => c._id === b._id)).toEqual({
      _id: b._id,
      familyId: b._id,
      name: 'BBB list',
      version: 1,
      vLocked: false,
      kind: 'workflow',
      folder: null,
      description: '',
    });
    const some = await t.call('GET', `/components?ids=${b._id},${a._id}`, { token: manager });
    expect(some.body.data.map((c: { name: string }) => c.name)).toEqual(['BBB list', 'aaa list']);
  });

  it('refuses a body without a name, an unknown kind, and a save made on an older copy', async () => {
    const noName = await save({ folder: null });
    expect(noName.status).toBe(422);
    expect(noName.body.data.issues).toEqual([{ path: 'name', message: 'Please input the component name' }]);
    const badKind = await save({ name: 'x', kind: 'loop' });
    expect(badKind.status).toBe(422);
    const c = await saved({ name: 'Twice', jsCode: 'ctx.output.a = 1;' });
    const stale = await save({ _id: c._id, name: 'Twice', sys_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('This component was saved by someone else since you opened it; reload it.');
    expect((await save({ _id: c._id, name: 'Twice', sys_version: 2 })).status).toBe(200);
  });

  it('refuses to change a locked version or a read-only document', async () => {
    const c = await saved({ name: 'Locked', jsCode: '' });
    await t.ctx.db.kysely.updateTable('components').set({ v_locked: true }).where('id', '=', c._id).execute();
    const res = await save({ _id: c._id, name: 'Locked', jsCode: 'x', sys_version: c.sys_version });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Version 1 of this component is locked: create a new version to change it.');
    expect((await t.call('DELETE', `/components?id=${c._id}`, { token: manager })).status).toBe(403);
    const r = await saved({ name: 'ReadOnly' });
    await t.ctx.db.kysely.updateTable('components').set({ read_only: true }).where('id', '=', r._id).execute();
    expect((await save({ _id: r._id, name: 'ReadOnly', sys_version: r.sys_version })).body.message).toBe(
      'This component is read-only.',
    );
  });

  it('deletes a component no other one uses; a used one is refused', async () => {
    const leaf = await saved({ name: 'UsedLeaf' });
    const user = await saved({ name: 'User', kind: 'workflow', instances: [{ name: 'x', instanceOf: leaf._id }] });
    const refused = await t.call('DELETE', `/components?id=${leaf._id}`, { token: manager });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This component is used by User (v.1 - Draft).');
    expect((await t.call('DELETE', `/components?id=${user._id}`, { token: manager })).body.data).toEqual({ _id: user._id });
    expect((await t.call('DELETE', `/components?id=${leaf._id}`, { token: manager })).status).toBe(200);
    const gone = await t.call('GET', `/components/find?id=${leaf._id}`, { token: manager });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Document not found');
  });

  it('refuses to delete a component a pipeline runs', async () => {
    const run = await saved({ name: 'RunByPipeline' });
    await buildPipeline(t, { name: 'Runs it', component: run._id });
    const refused = await t.call('DELETE', `/components?id=${run._id}`, { token: manager });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('Runs it');
    expect((await t.call('GET', `/components/find?id=${run._id}`, { token: manager })).status).toBe(200);
  });
});

describe('access', () => {
  it('admits managers and super-admins to component calls, and only super-admins to the code and to stopping', async () => {
    const c = await saved({ name: 'Guarded', jsCode: 'ctx.output.v = 1;' });
    for (const roles of [['user'], ['admin']] as const) {
      const { token } = await t.signedIn([...roles]);
      expect((await t.call('GET', '/components/list', { token })).status).toBe(403);
      expect((await execute(c._id, {}, token)).status).toBe(403);
    }
    expect((await t.call('GET', `/components/${c._id}/js-code`, { token: manager })).status).toBe(403);
    expect((await t.call('POST', `/components/${c._id}/generate`, { token: manager })).status).toBe(403);
    expect((await t.call('POST', `/components/${c._id}/stop`, { token: manager })).status).toBe(403);
    expect((await t.call('GET', `/components/${c._id}/js-code`, { token: boss })).status).toBe(200);
    expect((await t.call('POST', `/components/${c._id}/stop`, { token: boss })).body.data).toEqual({ stopped: false });
    expect((await t.call('GET', '/components/documentation', { token: manager })).status).toBe(200);
  });
});

describe('program and runs', () => {
  it('answers the program of a component: one readable JavaScript text; generate rebuilds it', async () => {
    const c = await saved({ name: 'Shown', jsCode: 'ctx.output.v = 41 + 1;', outputs: [{ name: 'v' }] });
    const code = await t.call('GET', `/components/${c._id}/js-code`, { token: boss });
    expect(code.status).toBe(200);
    expect(code.body.data).toContain(`// ───── Component "Shown" v1 · instruction · ${c._id} ─────`);
    expect(code.body.data).toContain('\nctx.output.v = 41 + 1;\n');
    const generated = await t.call('POST', `/components/${c._id}/generate`, { token: boss });
    expect(generated.body.data).toBe(code.body.data);
  });

  it('answers build errors naming the component', async () => {
    const broken = { name: 'Broken flow', kind: 'workflow', inputs: [{ name: 'a' }] };
    const links = [{ name: 'l1', fromInstance: '', fromPort: 'a', toInstance: 'ghost', toPort: 'x' }];
    const c = await saved(broken);
    // The save refuses it (docs/product.md §16.3); a row stored before that rule still runs into the build error.
    const refused = await save({ ...broken, links, _id: c._id, sys_version: c.sys_version });
    expect([refused.status, refused.body.message]).toEqual([
      422,
      'Component "Broken flow" v1: link "l1" cannot find instance "ghost"',
    ]);
    const stored = JSON.stringify(links.map((l) => ({ ...l, jsCode: '', inputSchema: null, outputSchema: null })));
    await t.ctx.db.kysely.updateTable('components').set({ links: stored }).where('id', '=', c._id).execute();
    const res = await t.call('GET', `/components/${c._id}/js-code`, { token: boss });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Component "Broken flow" v1: link "l1" cannot find instance "ghost"');
    const run = await execute(c._id, { payload: { a: 1 } });
    expect(run.body.message).toBe('Execute error : Component "Broken flow" v1: link "l1" cannot find instance "ghost"');
    const missing = newId();
    const m = await saved({ name: 'No model', inputs: [{ name: 'rows' }] });
    // A save naming a missing data model is refused; a row stored before that rule still runs into the build error.
    const inputs = JSON.stringify([{ name: 'rows', inputSchema: missing, isJoin: false, isFork: false, inputIsJoin: false }]);
    await t.ctx.db.kysely.updateTable('components').set({ inputs }).where('id', '=', m._id).execute();
    expect((await execute(m._id, {})).body.message).toBe(
      `Execute error : Component "No model" v1: input port "rows": Cannot load schema ${missing} from server`,
    );
  });

  it('answers 404 for a component that does not exist', async () => {
    const res = await execute(newId(), {});
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Document not found');
    expect((await t.call('GET', `/components/${newId()}/js-code`, { token: boss })).status).toBe(404);
  });

  it('runs a test: payload and rt_context in; output, logs and rt_context out', async () => {
    const c = await saved({
      name: 'Runner',
      inputs: [{ name: 'name' }],
      outputs: [{ name: 'greeting' }],
      jsCode: 'ctx.output.greeting = `Hi ${ctx.input.name}`; ctx.rt_context.seen = true; ctx.log("said hi");',
    });
    const res = await execute(c._id, { payload: { name: 'Ada' }, rt_context: { brand: 'Acme' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      output: { greeting: 'Hi Ada' },
      logs: [{ level: 'info', message: 'said hi', date: expect.any(String) }],
      rt_context: { brand: 'Acme', seen: true },
    });
    const empty = await execute(c._id, {});
    expect(empty.body.data.output).toEqual({ greeting: 'Hi undefined' });
  });

  it('checks port values against their data models', async () => {
    const model = await t.services.schemas.create({
      name: 'Named',
      jsonSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const c = await saved({ name: 'Checked', inputs: [{ name: 'row', inputSchema: model._id }], jsCode: '' });
    const bad = await execute(c._id, { payload: { row: { name: 3 } } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      'Execute error : Component "Checked" v1: input port "row": the value does not match data model "Named" v1 at /name: must be string',
    );
    expect((await execute(c._id, { payload: { row: { name: 'ok' } } })).status).toBe(200);
  });

  it('answers a failing run as an Execute error the page can show', async () => {
    const c = await saved({ name: 'Thrower', jsCode: "\nthrow new Error('no stock');" });
    const res = await execute(c._id, {});
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Execute error : Component "Thrower" v1: Error: no stock (line 2 of its code)');
  });

  it('stops the caller’s running test within a second', async () => {
    const slow = await createTestApp({ runtime: { ...loadConfig({}).runtime, timeoutMs: 60_000, poolSize: 1 } });
    try {
      const id = (await slow.services.components.save(superAdmin(), { name: 'Forever', jsCode: 'while (true) {}' }))._id;
      const { token } = await slow.signedIn(['super-admin']);
      const other = await slow.signedIn(['super-admin']);
      const running = slow.call('POST', `/components/${id}/execute`, { token, body: {} });
      await new Promise((r) => setTimeout(r, 300));
      // Another caller's stop does not touch this test.
      expect((await slow.call('POST', `/components/${id}/stop`, { token: other.token })).body.data).toEqual({ stopped: false });
      const stoppedAt = Date.now();
      expect((await slow.call('POST', `/components/${id}/stop`, { token })).body.data).toEqual({ stopped: true });
      const res = await running;
      expect(Date.now() - stoppedAt).toBeLessThan(1000);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('Execute error : The run was cancelled.');
    } finally {
      await slow.close();
    }
  });

  it('leaves the server healthy after hostile code, answering each caller with a clear error', async () => {
    const loop = await saved({ name: 'Loop', jsCode: 'for (;;) {}' });
    expect((await execute(loop._id, {})).body.message).toBe(
      'Execute error : The run took longer than its limit of 1500 ms and was stopped.',
    );
    // Memory runs out within the time limit on a quiet machine, not always on a loaded one: either
    // limit stops the run, and the server stays healthy (runtime/hostile.test.ts holds the memory limit).
    const bomb = await saved({ name: 'Bomb', jsCode: 'const a = []; for (;;) a.push(new Array(1e5).fill(1.5));' });
    expect((await execute(bomb._id, {})).body.message).toMatch(
      /^Execute error : The run (used more than its limit of 64 MiB of memory|took longer than its limit of 1500 ms) and was stopped\.$/,
    );
    const probe = await saved({
      name: 'Probe',
      outputs: [{ name: 'seen' }],
      jsCode: "ctx.output.seen = [typeof process, typeof require, ctx.constructor.constructor('return typeof process')()];",
    });
    expect((await execute(probe._id, {})).body.data.output).toEqual({ seen: ['undefined', 'undefined', 'undefined'] });
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });
});
