import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, signedInAs } from '../../../test/fake-api.ts';
import { button } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { versionedFields } from '../../../test/versions-fixtures.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const USER = '00000000-0000-4000-8000-000000000002';
const USED = '00000000-0000-4000-8000-000000000003';
const PIPELINE = '00000000-0000-4000-8000-000000000004';
const FORM_SCHEMA = { type: 'object', title: 'Build the component', properties: { name: { type: 'string', title: 'Name' } } };
const component = (id: string, name: string) => ({
  ...versionedFields(id, name),
  description: '',
  kind: 'workflow',
  testPayload: {},
  testContext: {},
  inputs: [],
  outputs: [],
  instances: [],
  links: [],
  jsCode: '',
  dependencies: [],
  sdk: [],
});
const node = (key: string, name: string, class_name: string, sources: string[]) => ({
  key,
  name,
  class_name,
  version: 1,
  vLocked: false,
  type: 'workflow',
  sources,
});

async function open() {
  signedInAs(['manager'], {
    'GET /folders/tree': () => ok([]),
    'GET /schemas/byname': () => ok({ _id: ID, name: 'rt-component', version: 1, jsonSchema: FORM_SCHEMA }),
    'GET /components/find': (call) =>
      ok(new URLSearchParams(call.search).get('id') === USED ? component(USED, 'Used inside') : component(ID, 'Middle')),
    'GET /components/usages': () =>
      ok([
        { _id: USER, type: 'component', name: 'Runs middle', version: 3, vLocked: true, url: `/manage/components?id=${USER}` },
        {
          _id: PIPELINE,
          type: 'pipeline',
          name: 'Dealers FR',
          version: 1,
          vLocked: false,
          url: `/manage/pipeline?id=${PIPELINE}`,
        },
      ]),
    [`GET /components/${ID}/dependencies`]: () =>
      ok({
        components: [
          node(ID, 'Middle', 'selected', [USER]),
          node(USER, 'Runs middle', 'user', []),
          node(USED, 'Used inside', 'dependency', [ID]),
        ],
        pipelines: [{ key: PIPELINE, name: 'Dealers FR', version: 1, vLocked: false, component: USER }],
        dependencies: [
          { from: USER, to: ID },
          { from: ID, to: USED },
        ],
        bottomComponents: [USED],
        component: ID,
      }),
  });
  const app = renderApp(`/manage/components?id=${ID}`);
  await screen.findByText('Middle (v.1 - Draft)');
  return app;
}

describe('Components page tools', () => {
  it("lists the version's usages with their version and address", async () => {
    await open();
    fireEvent.click(button('Usages'));
    const dialog = await screen.findByRole('dialog', { name: 'Usages' });
    const link = await waitFor(() => screen.getByRole('link', { name: 'Runs middle (v.3 - Prod)' }));
    expect(link.getAttribute('href')).toBe(`/manage/components?id=${USER}`);
    expect(dialog.textContent).toContain('Dealers FR (v.1 - Draft)');
  });

  it('shows the dependency hierarchy and opens a component from it', async () => {
    const app = await open();
    fireEvent.click(button('Dependencies'));
    const runs = await screen.findByRole('region', { name: 'Runs' });
    expect(screen.getByRole('region', { name: 'Used by' }).textContent).toContain('Runs middle (v.1 - Draft)');
    expect(screen.getByRole('region', { name: 'Pipelines' }).textContent).toContain('Dealers FR');
    fireEvent.click(button('Used inside (v.1 - Draft)', runs));
    await waitFor(() => expect(app.where()).toBe(`/manage/components?id=${USED}`));
  });
});
