import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';
import { referenceRefused } from '../access/access.service.ts';

// A manager without the badge acts as an attacker would: through components of their own (or
// open ones), they try to reach a closed component's code, a closed data model's validator and a
// closed SDK function. Saves and test runs check every reference, and never name what is closed.
let t: TestApp;
let boss: string;
let attacker: string;
const closed = { model: '', component: '', sdk: '' };
const SECRET = 'Secret';

const call = (method: 'POST' | 'DELETE', url: string, token: string, body?: unknown) =>
  t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
const save = (token: string, body: Record<string, unknown>) => call('POST', '/components', token, body);

/** A component saved by `token` with this body (created, then its full body saved). */
async function component(token: string, body: Record<string, unknown>) {
  const made = (await save(token, { name: body.name })).body.data;
  return save(token, { ...body, _id: made._id, sys_version: made.sys_version });
}

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  attacker = (await t.signedIn(['manager'])).token;
  const badge = (await call('POST', '/tags', boss, { name: `${SECRET} badge`, type: 'project' })).body.data._id;
  const closeIt = (id: string, type: string) =>
    call('POST', '/tags/update-document-tags', boss, { id, type, tags: { read: [[badge]], write: [[badge]] } });
  closed.model = (
    await call('POST', '/schemas', boss, { name: `${SECRET} model`, jsonSchema: { type: 'string', enum: ['TOPSECRET'] } })
  ).body.data._id;
  closed.component = (await component(boss, { name: `${SECRET} code`, jsCode: 'ctx.output.out = "TOPSECRET";' })).body.data._id;
  closed.sdk = (await call('POST', '/sdk', boss, { functionName: 'secretFn' })).body.data._id;
  for (const [id, type] of [
    [closed.model, 'schema'],
    [closed.component, 'component'],
    [closed.sdk, 'sdk'],
  ] as const) {
    expect((await closeIt(id, type)).status).toBe(200);
  }
});
afterAll(() => t.close());

/** The refusal of a reference: 403, naming the field and the id, never the closed document's name. */
function expectRefused(res: { status: number; body: { message: string } }, path: string, id: string) {
  expect([res.status, res.body.message]).toEqual([403, referenceRefused({ path, id })]);
  expect(res.body.message).not.toContain(SECRET);
}

describe('a manager saving a component of their own that names a closed document', () => {
  it('may not use a closed component as an instance (to run its code)', async () => {
    const res = await component(attacker, {
      name: 'Thief flow',
      kind: 'workflow',
      instances: [{ name: 'inner', instanceOf: closed.component }],
    });
    expectRefused(res, 'instances[0].instanceOf', closed.component);
  });

  it('may not put a closed data model on a port (to run its validator)', async () => {
    expectRefused(
      await component(attacker, { name: 'Thief in', inputs: [{ name: 'in', inputSchema: closed.model }] }),
      'inputs[0].inputSchema',
      closed.model,
    );
    expectRefused(
      await component(attacker, { name: 'Thief out', outputs: [{ name: 'a' }, { name: 'out', outputSchema: closed.model }] }),
      'outputs[1].outputSchema',
      closed.model,
    );
  });

  it('may not list a closed SDK function (to call it)', async () => {
    const res = await component(attacker, { name: 'Thief sdk', sdk: [closed.sdk], jsCode: 'ctx.output.out = sdk.secretFn();' });
    expectRefused(res, 'sdk[0]', closed.sdk);
  });
});

describe('a manager saving a data model of their own', () => {
  it('may not $ref a closed data model (to have its validator built into theirs)', async () => {
    const jsonSchema = { type: 'object', properties: { a: { $ref: closed.model } } };
    const made = await call('POST', '/schemas', attacker, { name: 'Thief model', jsonSchema });
    expectRefused(made, 'jsonSchema.properties.a.$ref', closed.model);
    const own = (await call('POST', '/schemas', attacker, { name: 'Thief draft', jsonSchema: { type: 'object' } })).body.data;
    const saved = await call('POST', '/schemas', attacker, { ...own, jsonSchema: { anyOf: [{ $ref: `${closed.model}#/x` }] } });
    expectRefused(saved, 'jsonSchema.anyOf[0].$ref', closed.model);
  });
});

describe('a manager running an open component that names a closed document', () => {
  const execute = (id: string) => call('POST', `/components/${id}/execute`, attacker, { payload: {} });

  it('may not run a workflow whose instance is closed to them', async () => {
    const flow = (
      await component(boss, { name: 'Open flow', kind: 'workflow', instances: [{ name: 'x', instanceOf: closed.component }] })
    ).body.data._id;
    expectRefused(await execute(flow), `instances[0].instanceOf of ${flow}`, closed.component);
  });

  it('may not run a component whose SDK function or data model is closed to them, even behind an open $ref', async () => {
    const withSdk = (await component(boss, { name: 'Open caller', sdk: [closed.sdk], jsCode: 'ctx.output.o = 1;' })).body.data
      ._id;
    expectRefused(await execute(withSdk), `sdk[0] of ${withSdk}`, closed.sdk);
    const wrapper = (await call('POST', '/schemas', boss, { name: 'Open wrapper', jsonSchema: { $ref: closed.model } })).body.data
      ._id;
    const withRef = (await component(boss, { name: 'Open checker', inputs: [{ name: 'in', inputSchema: wrapper }] })).body.data
      ._id;
    expectRefused(await execute(withRef), `jsonSchema.$ref of ${wrapper}`, closed.model);
  });

  it('runs it once nothing it names is closed', async () => {
    const open = (await component(boss, { name: 'Open plain', outputs: [{ name: 'o' }], jsCode: 'ctx.output.o = 2;' })).body.data
      ._id;
    const res = await execute(open);
    expect([res.status, res.body.data?.output]).toEqual([200, { o: 2 }]);
  });
});

describe('a component save', () => {
  it('requires the sys_version it was read at, as a data model save does', async () => {
    const made = (await save(attacker, { name: 'Counted' })).body.data;
    const missing = await save(attacker, { _id: made._id, name: 'Counted', jsCode: 'x' });
    expect([missing.status, missing.body.message]).toEqual([400, 'Update : Missing sys_version in document']);
    const stale = await save(attacker, { _id: made._id, name: 'Counted', sys_version: made.sys_version - 1 });
    expect(stale.status).toBe(409);
    expect((await save(attacker, { _id: made._id, name: 'Counted', sys_version: made.sys_version })).status).toBe(200);
  });

  it('refuses a port naming a data model that does not exist', async () => {
    const ghost = newId();
    const res = await component(attacker, { name: 'Ghost port', inputs: [{ name: 'a' }, { name: 'b', inputSchema: ghost }] });
    const message = `Component "Ghost port" v1: input port "b": Cannot load schema ${ghost} from server`;
    expect([res.status, res.body.message]).toEqual([400, message]);
    expect(res.body.data.issues).toEqual([{ path: 'inputs.1.inputSchema', message }]);
  });

  it('and the delete of the data model it names, at the same moment, never both succeed', async () => {
    for (let round = 0; round < 8; round += 1) {
      const model = (await call('POST', '/schemas', boss, { name: `Raced ${round}`, jsonSchema: { type: 'object' } })).body.data;
      const made = (await save(boss, { name: `Racer ${round}` })).body.data;
      const [saved, deleted] = await Promise.all([
        save(boss, {
          _id: made._id,
          name: made.name,
          sys_version: made.sys_version,
          inputs: [{ name: 'in', inputSchema: model._id }],
        }),
        call('POST', '/schemas/version/delete', boss, { id: model._id }),
      ]);
      expect([saved.status, deleted.status].sort()).toEqual(saved.status === 200 ? [200, 409] : [200, 400]);
      const stored = await t.ctx.db.kysely.selectFrom('schemas').select('id').where('id', '=', model._id).executeTakeFirst();
      expect(stored !== undefined).toBe(saved.status === 200);
    }
  });

  it('and the delete of the folder holding the data model it names, at the same moment, never both succeed', async () => {
    for (let round = 0; round < 6; round += 1) {
      const folder = (await call('POST', '/folders', boss, { name: `Shelf ${round}`, kind: 'schema' })).body.data.id;
      const model = (await call('POST', '/schemas', boss, { name: `Shelved ${round}`, folder, jsonSchema: { type: 'object' } }))
        .body.data;
      const made = (await save(boss, { name: `Shelf user ${round}` })).body.data;
      const [saved, deleted] = await Promise.all([
        save(boss, {
          _id: made._id,
          name: made.name,
          sys_version: made.sys_version,
          inputs: [{ name: 'in', inputSchema: model._id }],
        }),
        t.call('DELETE', '/folders', { token: boss, body: { id: folder, kind: 'schema', withDocuments: true } }),
      ]);
      expect([saved.status, deleted.status].sort()).toEqual(saved.status === 200 ? [200, 409] : [200, 400]);
    }
  });
});
