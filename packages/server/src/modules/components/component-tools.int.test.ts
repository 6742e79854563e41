import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { fileHead, multipartBody, partEnd } from '../../../test/upload-client.ts';
import { newId } from '../../platform/ids.ts';

// The component editor's calls beyond the document: its dependency hierarchy, its usages, the
// build errors of docs/product.md §16.3 on save, and the rows of a test file for the 'Load ...' dialog.

const CORPUS = path.join(import.meta.dirname, '../../../test/corpus');

let t: TestApp;
let boss: string;
let manager: string;
beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  manager = (await t.signedIn(['manager'])).token;
});
afterAll(async () => {
  await t.close();
});

const save = (body: Record<string, unknown>, token = manager) => t.call('POST', '/components', { token, body });

/** A component made, then saved with this body; the save's answer. */
async function saveNew(body: Record<string, unknown>, token = manager) {
  const made = (await save({ name: body.name }, token)).body.data;
  return save({ ...body, _id: made._id, sys_version: made.sys_version }, token);
}

async function saved(body: Record<string, unknown>): Promise<{ _id: string; name: string }> {
  const res = await saveNew(body);
  expect(res.status, res.body.message).toBe(200);
  return res.body.data;
}

/** Two instructions, a workflow running both, an outer workflow running that one, and a pipeline invoking the outer one. */
async function family(prefix: string) {
  const source = await saved({ name: `${prefix} source`, outputs: [{ name: 'out' }], jsCode: 'ctx.output.out = 1;' });
  const sink = await saved({
    name: `${prefix} sink`,
    inputs: [{ name: 'in' }],
    outputs: [{ name: 'done' }],
    jsCode: 'ctx.output.done = ctx.input.in;',
  });
  const flow = await saved({
    name: `${prefix} flow`,
    kind: 'workflow',
    outputs: [{ name: 'result' }],
    instances: [
      { name: 'a', instanceOf: source._id },
      { name: 'b', instanceOf: sink._id },
    ],
    links: [
      { name: 'l1', fromInstance: 'a', fromPort: 'out', toInstance: 'b', toPort: 'in' },
      { name: 'l2', fromInstance: 'b', fromPort: 'done', toInstance: '', toPort: 'result' },
    ],
  });
  const outer = await saved({
    name: `${prefix} outer`,
    kind: 'workflow',
    outputs: [{ name: 'all' }],
    instances: [{ name: 'f', instanceOf: flow._id }],
    links: [{ name: 'l', fromInstance: 'f', fromPort: 'result', toInstance: '', toPort: 'all' }],
  });
  const pipeline = await buildPipeline(t, { name: `${prefix} pipeline`, isMaster: true, component: outer._id });
  return { source, sink, flow, outer, pipeline };
}

describe('GET /components/{id}/dependencies', () => {
  it('answers what the component runs and what runs it, at any depth, with the pipelines invoking them', async () => {
    const { source, sink, flow, outer, pipeline } = await family('H');
    const res = await t.call('GET', `/components/${flow._id}/dependencies`, { token: manager });
    expect(res.status, res.body.message).toBe(200);
    const h = res.body.data;
    expect(h.component).toBe(flow._id);
    const byKey = new Map(h.components.map((c: { key: string }) => [c.key, c]));
    expect(byKey.get(flow._id)).toEqual({
      key: flow._id,
      name: 'H flow',
      class_name: 'selected',
      version: 1,
      vLocked: false,
      type: 'workflow',
      sources: [outer._id],
    });
    expect(byKey.get(source._id)).toMatchObject({ class_name: 'dependency', type: 'instruction', sources: [flow._id] });
    expect(byKey.get(sink._id)).toMatchObject({ class_name: 'dependency', sources: [flow._id] });
    expect(byKey.get(outer._id)).toMatchObject({ class_name: 'user', type: 'workflow', sources: [] });
    expect(h.components).toHaveLength(4);
    expect(h.dependencies).toEqual(
      expect.arrayContaining([
        { from: flow._id, to: source._id },
        { from: flow._id, to: sink._id },
        { from: outer._id, to: flow._id },
      ]),
    );
    expect(h.dependencies).toHaveLength(3);
    expect(h.bottomComponents.sort()).toEqual([source._id, sink._id].sort());
    expect(h.pipelines).toEqual([{ key: pipeline.id, name: 'H pipeline', version: 1, vLocked: false, component: outer._id }]);
  });

  it('is for managers and super-admins, and answers 404 for a component that does not exist', async () => {
    const { source } = await family('R');
    expect((await t.call('GET', `/components/${source._id}/dependencies`, { token: boss })).status).toBe(200);
    for (const role of ['user', 'admin'] as const) {
      const { token } = await t.signedIn([role]);
      expect((await t.call('GET', `/components/${source._id}/dependencies`, { token })).status).toBe(403);
    }
    expect((await t.call('GET', `/components/${source._id}/dependencies`)).status).toBe(401);
    const missing = await t.call('GET', `/components/${newId()}/dependencies`, { token: manager });
    expect([missing.status, missing.body.message]).toEqual([404, 'Document not found']);
  });

  it('leaves out the components a badge closes to the caller, and refuses one closed itself', async () => {
    const { flow, outer } = await family('Closed');
    const secret = (await t.call('POST', '/tags', { token: boss, body: { name: 'Hierarchy secret', type: 'project' } })).body.data
      ._id;
    const closed = await t.call('POST', '/tags/update-document-tags', {
      token: boss,
      body: { id: outer._id, type: 'component', tags: { read: [[secret]], write: [[secret]] } },
    });
    expect(closed.status).toBe(200);
    const h = (await t.call('GET', `/components/${flow._id}/dependencies`, { token: manager })).body.data;
    expect(h.components.map((c: { key: string }) => c.key)).not.toContain(outer._id);
    expect(h.dependencies.some((d: { from: string }) => d.from === outer._id)).toBe(false);
    expect(h.components.find((c: { key: string }) => c.key === flow._id).sources).toEqual([]);
    expect(JSON.stringify(h)).not.toContain('Closed outer');
    expect((await t.call('GET', `/components/${outer._id}/dependencies`, { token: manager })).status).toBe(403);
    const usages = (await t.call('GET', `/components/usages?id=${flow._id}`, { token: manager })).body.data;
    expect(usages).toEqual([]);
  });
});

describe('GET /components/usages', () => {
  it('lists the components and pipelines using a component, with name, version and the address to open', async () => {
    const { flow, outer, source, pipeline } = await family('U');
    const ofFlow = await t.call('GET', `/components/usages?id=${flow._id}`, { token: manager });
    expect(ofFlow.status).toBe(200);
    expect(ofFlow.body.data).toEqual([
      {
        _id: outer._id,
        type: 'component',
        name: 'U outer',
        version: 1,
        vLocked: false,
        url: `/manage/components?id=${outer._id}`,
      },
    ]);
    const ofOuter = (await t.call('GET', `/components/usages?id=${outer._id}`, { token: manager })).body.data;
    expect(ofOuter).toEqual([
      {
        _id: pipeline.id,
        type: 'pipeline',
        name: 'U pipeline',
        version: 1,
        vLocked: false,
        url: `/manage/pipeline?id=${pipeline.id}`,
      },
    ]);
    expect(
      (await t.call('GET', `/components/usages?id=${source._id}`, { token: manager })).body.data.map(
        (u: { name: string }) => u.name,
      ),
    ).toEqual(['U flow']);
    const { token } = await t.signedIn(['user']);
    expect((await t.call('GET', `/components/usages?id=${flow._id}`, { token })).status).toBe(403);
    expect((await t.call('GET', '/components/usages?id=nope', { token: manager })).status).toBe(422);
  });
});

describe('build errors on save (docs/product.md §16.3)', () => {
  it('refuses repeated instance, input, output and link names, naming the component', async () => {
    const { source } = await family('Dup');
    const res = await saveNew({
      name: 'Twice',
      kind: 'workflow',
      inputs: [{ name: 'x' }, { name: 'x' }],
      outputs: [{ name: 'y' }, { name: 'y' }],
      instances: [
        { name: 'i', instanceOf: source._id },
        { name: 'i', instanceOf: source._id },
      ],
      links: [
        { name: 'l', fromInstance: 'i', fromPort: 'out', toInstance: '', toPort: 'y' },
        { name: 'l', fromInstance: 'i', fromPort: 'out', toInstance: '', toPort: 'y' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.data.issues.map((i: { message: string }) => i.message)).toEqual([
      'Component "Twice" v1: duplicate input name "x"',
      'Component "Twice" v1: duplicate output name "y"',
      'Component "Twice" v1: duplicate instance name "i"',
      'Component "Twice" v1: duplicate link name "l"',
    ]);
    expect(res.body.message).toBe(res.body.data.issues.map((i: { message: string }) => i.message).join('; '));
  });

  it("refuses links naming a port or an instance that does not exist ('cannot find port', 'cannot find instance')", async () => {
    const { source } = await family('Lost');
    const res = await saveNew({
      name: 'Lost links',
      kind: 'workflow',
      inputs: [{ name: 'in' }],
      outputs: [{ name: 'out' }],
      instances: [{ name: 'a', instanceOf: source._id }],
      links: [
        { name: 'l1', fromInstance: '', fromPort: 'nope', toInstance: '', toPort: 'out' },
        { name: 'l2', fromInstance: 'ghost', fromPort: 'out', toInstance: '', toPort: 'out' },
        { name: 'l3', fromInstance: 'a', fromPort: 'missing', toInstance: '', toPort: 'out' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.data.issues.map((i: { message: string }) => i.message)).toEqual([
      `Component "Lost links" v1: link "l1" cannot find port "nope" among the component's inputs`,
      'Component "Lost links" v1: link "l2" cannot find instance "ghost"',
      'Component "Lost links" v1: link "l3" cannot find port "missing" among the outputs of instance "a"',
    ]);
    expect(
      (await t.call('GET', '/components/list', { token: manager })).body.data.some(
        (c: { name: string; kind: string }) => c.name === 'Lost links' && c.kind === 'workflow',
      ),
    ).toBe(false);
  });

  it("refuses a port whose data model cannot be loaded ('Cannot load schema ... from server')", async () => {
    const ghost = newId();
    const res = await saveNew({ name: 'No model', outputs: [{ name: 'row', outputSchema: ghost }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`Component "No model" v1: output port "row": Cannot load schema ${ghost} from server`);
  });
});

async function sendFile(name: string, bytes: Uint8Array | string, token = manager) {
  const { body, headers } = multipartBody([fileHead('file', name), Buffer.from(bytes), partEnd]);
  return t.call('POST', '/components/test-file', { token, body, headers });
}

describe('POST /components/test-file', () => {
  it('answers the rows of a CSV file', async () => {
    const res = await sendFile('dealers.csv', 'code;name;vehicles\nFR1;Garage;42\nFR2;Nord;\n');
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data).toEqual({
      fileName: 'dealers.csv',
      format: 'csv',
      fields: ['code', 'name', 'vehicles'],
      rowCount: 2,
      rows: [
        { code: 'FR1', name: 'Garage', vehicles: '42' },
        { code: 'FR2', name: 'Nord', vehicles: null },
      ],
    });
  });

  it('answers the first visible sheet of a workbook, XLSX and XLS', async () => {
    for (const file of ['hidden-first.xlsx', 'hidden-first.xls']) {
      const res = await sendFile(file, fs.readFileSync(path.join(CORPUS, 'excel', file)));
      expect(res.status, `${file}: ${res.body.message}`).toBe(200);
      expect(res.body.data).toMatchObject({
        format: file.endsWith('x') ? 'xlsx' : 'xls',
        rows: [{ code: 'H1', name: 'fresh row' }],
      });
    }
  });

  it('answers the rows of a JSON file', async () => {
    const res = await sendFile('rows.json', JSON.stringify([{ a: 1, b: { c: true } }, { a: 2 }]));
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data).toMatchObject({ format: 'json', rowCount: 2, rows: [{ a: 1, b: { c: true } }, { a: 2 }] });
  });

  it('refuses what it cannot read, saying why, a file past 20 MiB, and callers other than managers and super-admins', async () => {
    const xml = await sendFile('rows.xml', '<?xml version="1.0"?><rows><row><a>1</a></row></rows>');
    expect([xml.status, xml.body.message]).toEqual([422, 'The file is not a CSV, XLSX, XLS or JSON file.']);
    const broken = await sendFile('broken.json', '[{"a": 1}, {"a": ');
    expect(broken.status).toBe(422);
    expect(broken.body.message).not.toBe('');
    const big = await sendFile('big.csv', `a\n${'1\n'.repeat(10 * 1024 * 1024 + 10)}`);
    expect([big.status, big.body.message]).toEqual([413, 'Files must be less than 20 MiB']);
    const empty = multipartBody([]);
    expect((await t.call('POST', '/components/test-file', { token: manager, ...empty })).status).toBe(422);
    for (const role of ['user', 'admin'] as const) {
      const { token } = await t.signedIn([role]);
      expect((await sendFile('a.csv', 'a\n1\n', token)).status).toBe(403);
    }
    expect((await sendFile('a.csv', 'a\n1\n', boss)).status).toBe(200);
  });
});
