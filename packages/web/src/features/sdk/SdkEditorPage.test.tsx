import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, ok, signedInAs } from '../../../test/fake-api.ts';
import { button, dialog } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { versionedFields } from '../../../test/versions-fixtures.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const COMPONENT = '00000000-0000-4000-8000-000000000020';
const FORM_MODEL = '00000000-0000-4000-8000-000000000010';

/** An SDK function version as the server answers it: no `name`, its function name instead. */
function sdkFunction(over: Record<string, unknown> = {}) {
  const { name: _name, ...fields } = versionedFields(ID, 'unused');
  return {
    ...fields,
    functionName: 'formatPrice',
    jsCode: "async function () {\n  return 'Hello from the SDK';\n}",
    testPayload: [12.5, 'EUR'],
    documentation: 'Formats a price',
    input: 'amount, currency',
    output: 'a text',
    error: 'none',
    modules: [{ name: 'lodash', version: '4.17.21' }],
    ...over,
  };
}

/** The part of rt-sdk-schema these tests need. */
const FORM_SCHEMA = {
  type: 'object',
  title: 'Build the sdk',
  required: ['functionName', 'jsCode'],
  properties: {
    functionName: { type: 'string', title: 'Name', minLength: 1, ui: { label: 'Name' } },
    documentation: { type: 'string', title: 'Documentation', ui: { label: 'Documentation', widget: 'textarea' } },
    modules: { type: 'array', title: 'Modules', items: { type: 'string' }, ui: { label: 'Modules' } },
    jsCode: { type: 'string', title: 'Code', ui: { label: 'Code', widget: 'code' } },
  },
};

const TREE = [
  {
    value: 'root',
    label: 'SDK functions',
    type: 'folder',
    versions: [],
    tags: { read: [], write: [] },
    metadataTags: [],
    children: [],
  },
];

function report(over: Record<string, unknown> = {}) {
  return {
    _id: ID,
    checked: true,
    vulnerable: [],
    modules: [{ name: 'lodash', version: '4.17.21' }],
    message: 'No vulnerable packages',
    error: null,
    advisories: { source: 'advisories.json', count: 2, readAt: '2026-12-06T10:00:00.000Z' },
    ...over,
  };
}

type Routes = Parameters<typeof signedInAs>[1];

async function openSdk(routes: Routes = {}, over: Record<string, unknown> = {}) {
  const server = signedInAs(['super-admin'], {
    'GET /folders/tree': () => ok(TREE),
    'GET /tags/list': () => ok([]),
    'GET /schemas/byname': () => ok({ _id: FORM_MODEL, name: 'rt-sdk-schema', version: 1, jsonSchema: FORM_SCHEMA }),
    'GET /sdk/find': () => ok(sdkFunction(over)),
    'GET /sdk/vulnerabilities': () => ok(report()),
    ...routes,
  });
  const app = renderApp(`/manage/sdk?id=${ID}`);
  await screen.findByText(`formatPrice (v.1 - ${over.vLocked ? 'Prod' : 'Draft'})`);
  await waitFor(() => expect(documentation().value).toBe('Formats a price'));
  return { server, app };
}

const documentation = () => screen.getByLabelText('Documentation') as HTMLTextAreaElement;
const reportRegion = () => screen.getByRole('region', { name: 'Vulnerable packages' });

describe('SDK editor', () => {
  it('opens the function of the address and saves the edited form, its modules as name and version', async () => {
    const { server } = await openSdk({
      'POST /sdk': (call) => ok({ ...sdkFunction(), ...(call.body as object), sys_version: 4 }),
    });
    expect(screen.getByRole('heading', { name: 'formatPrice' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Opened SDK functions' }).textContent).toContain('formatPrice');
    fireEvent.change(documentation(), { target: { value: 'Formats a price with its currency' } });
    fireEvent.click(button('Save'));
    await screen.findByText(`sdk saved, id : ${ID}`);
    // The modules may have changed: the report is read again.
    await waitFor(() => expect(server.count('GET /sdk/vulnerabilities')).toBe(2));
    const posted = server.calls.find((c) => c.method === 'POST' && c.path === '/sdk')?.body;
    expect(posted).toMatchObject({
      _id: ID,
      sys_version: 3,
      folder: null,
      functionName: 'formatPrice',
      documentation: 'Formats a price with its currency',
      modules: [{ name: 'lodash', version: '4.17.21' }],
    });
  });

  it('shows a locked version read-only, with Save disabled', async () => {
    await openSdk({}, { vLocked: true });
    expect(documentation().disabled).toBe(true);
    expect(button('Save').disabled).toBe(true);
  });

  it("shows the server's refusal of a save", async () => {
    const refusal = 'Module "lodash" is not on the allow-list of SDK modules';
    await openSdk({ 'POST /sdk': () => envelope(42200, refusal, null, 422) });
    fireEvent.click(button('Save'));
    await screen.findByText(refusal);
  });

  it('refuses a module given as a path before saving, naming it', async () => {
    const { server } = await openSdk({}, { modules: [{ name: '../../etc/passwd', version: '' }] });
    fireEvent.click(button('Save'));
    await screen.findByText('Module "../../etc/passwd" is not an npm package name (paths, URLs and git specs are refused)');
    expect(server.count('POST /sdk')).toBe(0);
  });

  it("says 'No vulnerable packages' in green when the check ran and found none", async () => {
    await openSdk();
    const clear = await waitFor(() => {
      const found = reportRegion().querySelector('.ant-typography-success');
      expect(found?.textContent).toBe('No vulnerable packages');
      return found;
    });
    expect(clear).toBeTruthy();
  });

  it('says why when no advisory data could be read, and never that nothing is vulnerable', async () => {
    const unread = report({
      checked: false,
      message: 'No advisory data could be read: advisories.json: no such file',
      error: 'advisories.json: no such file',
      advisories: { source: 'advisories.json', count: 0, readAt: null },
    });
    await openSdk({ 'GET /sdk/vulnerabilities': () => ok(unread) });
    await waitFor(() =>
      expect(reportRegion().textContent).toBe('Vulnerable packagesNo advisory data could be read: advisories.json: no such file'),
    );
    expect(reportRegion().textContent).not.toContain('No vulnerable packages');
  });

  it('lists the vulnerable modules with their advisories, and rechecks reading the advisory set again', async () => {
    const found = report({
      vulnerable: [
        {
          name: 'lodash',
          version: '4.17.20',
          advisories: [
            {
              id: 'GHSA-35jh-r3h4-6jhm',
              summary: 'Command injection in lodash',
              severity: 'HIGH',
              aliases: ['CVE-2021-23337'],
              fixed: '4.17.21',
              url: 'https://osv.dev/vulnerability/GHSA-35jh-r3h4-6jhm',
            },
          ],
        },
      ],
      message: '1 vulnerable package',
    });
    const { server } = await openSdk({
      'GET /sdk/vulnerabilities': (call) => ok(call.search.includes('refresh=true') ? found : report()),
    });
    await waitFor(() => expect(reportRegion().textContent).toContain('No vulnerable packages'));
    fireEvent.click(button('Recheck for vulnerabilities'));
    await waitFor(() => expect(reportRegion().textContent).toContain('Command injection in lodash'));
    expect(reportRegion().textContent).toContain('(fixed in 4.17.21)');
    expect(reportRegion().textContent).not.toContain('No vulnerable packages');
    const asked = server.calls.filter((c) => c.path === '/sdk/vulnerabilities').map((c) => new URLSearchParams(c.search));
    expect(asked.map((q) => [q.get('id'), q.get('refresh')])).toEqual([
      [ID, null],
      [ID, 'true'],
    ]);
  });

  it("lists in 'Usages' the components that call it, each linked to the component", async () => {
    const usages = [
      {
        _id: COMPONENT,
        type: 'component',
        name: 'Check and map dealers',
        version: 2,
        vLocked: true,
        url: `/manage/components?id=${COMPONENT}`,
      },
    ];
    await openSdk({ 'GET /sdk/usages': () => ok(usages) });
    fireEvent.click(button('Usages'));
    const shown = await dialog('Usages');
    const link = await waitFor(() => {
      const a = shown.querySelector('a');
      expect(a?.textContent).toBe('Check and map dealers');
      return a;
    });
    expect(link?.getAttribute('href')).toBe(`/manage/components?id=${COMPONENT}`);
    expect(shown.textContent).toContain('(v.2 - Prod)');
  });

  it('runs the test with the argument array and shows the answer and the logs', async () => {
    const { server } = await openSdk({
      'POST /sdk/formatPrice/execute': () =>
        ok({ output: '12.50 EUR', logs: [{ level: 'info', message: 'formatting 12.5', date: '2026-12-06T10:00:00.000Z' }] }),
    });
    const args = screen.getByLabelText('Arguments (a JSON array)') as HTMLTextAreaElement;
    expect(JSON.parse(args.value)).toEqual([12.5, 'EUR']);
    fireEvent.change(args, { target: { value: '[12.5, "EUR", {"digits": 2}]' } });
    fireEvent.click(button('Run test'));
    const output = await screen.findByRole('region', { name: 'Output' });
    expect(output.textContent).toBe('"12.50 EUR"');
    expect(screen.getByRole('log', { name: 'Logs' }).textContent).toBe('2026-12-06T10:00:00.000Z [info] formatting 12.5');
    const sent = server.calls.find((c) => c.path === '/sdk/formatPrice/execute')?.body;
    expect(sent).toEqual({ payload: [12.5, 'EUR', { digits: 2 }], runId: expect.any(String) });
  });

  it('refuses arguments that are not a JSON array without calling the server', async () => {
    const { server } = await openSdk();
    fireEvent.change(screen.getByLabelText('Arguments (a JSON array)'), { target: { value: '{"amount": 1}' } });
    fireEvent.click(button('Run test'));
    await screen.findByText('The arguments must be a JSON array, e.g. [1, "two"].');
    expect(server.count('POST /sdk/formatPrice/execute')).toBe(0);
  });

  it("shows a failed run as 'Execute error : {detail}'", async () => {
    await openSdk({ 'POST /sdk/formatPrice/execute': () => envelope(40000, 'price is not defined', null, 400) });
    fireEvent.click(button('Run test'));
    await screen.findByText('Execute error : price is not defined');
  });
});

describe('SDK editor access', () => {
  it('sends a manager who types /manage/sdk to /unauthorized and offers no Sdk entry', async () => {
    const server = signedInAs(['manager']);
    const app = renderApp('/manage/sdk');
    await screen.findByRole('heading', { name: 'Unauthorized' });
    expect(app.where()).toBe('/unauthorized/index');
    expect(screen.queryByRole('link', { name: 'Sdk' })).toBeNull();
    expect(server.calls.filter((c) => c.path.startsWith('/sdk'))).toEqual([]);
  });
});
