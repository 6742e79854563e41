import '../../../../test/dom.ts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ok, type Recorded, signedInAs } from '../../../../test/fake-api.ts';
import { hex, type ServedSocket, servedSockets } from '../../../../test/live.ts';
import { button } from '../../../../test/queries.ts';
import { renderApp } from '../../../../test/render-app.tsx';
import { versionedFields } from '../../../../test/versions-fixtures.ts';

const sockets = servedSockets();

const ID = '00000000-0000-4000-8000-000000000001';
const FORM_SCHEMA = { type: 'object', title: 'Build the component', properties: { name: { type: 'string', title: 'Name' } } };
const component = {
  ...versionedFields(ID, 'Runaway'),
  description: '',
  kind: 'instruction',
  testPayload: {},
  testContext: {},
  inputs: [{ name: 'dealers', inputSchema: null, isJoin: false, isFork: false, inputIsJoin: false }],
  outputs: [],
  instances: [],
  links: [],
  jsCode: 'while (true) {}',
  dependencies: [],
  sdk: [],
};

async function openTest(roles: string[], routes: Parameters<typeof signedInAs>[1] = {}) {
  const server = signedInAs(roles, {
    'GET /folders/tree': () => ok([]),
    'GET /schemas/byname': () => ok({ _id: ID, name: 'rt-component', version: 1, jsonSchema: FORM_SCHEMA }),
    'GET /components/find': () => ok(component),
    ...routes,
  });
  renderApp(`/manage/components?id=${ID}`);
  await screen.findByText('Runaway (v.1 - Draft)');
  fireEvent.click(screen.getByText('Test component'));
  await waitFor(() => button('Run test'));
  return server;
}

describe('Test component', () => {
  it('lets a super-admin cancel a running test, and copy the compiled code', async () => {
    let finish: (r: Response) => void = () => {};
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const server = await openTest(['super-admin'], {
      [`POST /components/${ID}/execute`]: () => new Promise<Response>((resolve) => (finish = resolve)),
      [`POST /components/${ID}/stop`]: () => {
        finish(
          ok({
            output: {},
            logs: [{ level: 'error', message: 'Test cancelled', date: '2026-12-06T10:00:00.000Z' }],
            rt_context: {},
          }),
        );
        return ok({ stopped: true });
      },
      [`GET /components/${ID}/js-code`]: () => ok('async function run(ctx) {}'),
    });
    expect(screen.queryByRole('button', { name: 'Cancel test' })).toBeNull();
    fireEvent.click(button('Run test'));
    // The run starts once its log lines are followed on the live channel.
    await waitFor(() => expect(server.count(`POST /components/${ID}/execute`)).toBe(1));
    fireEvent.click(await waitFor(() => button('Cancel test')));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Logs' }).textContent).toContain('Test cancelled'));
    expect(server.count(`POST /components/${ID}/stop`)).toBe(1);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel test' })).toBeNull());
    fireEvent.click(button('Copy js code to clipboard'));
    await screen.findByText('Code copied to clipboard and printed to console.');
    expect(writeText).toHaveBeenCalledWith('async function run(ctx) {}');
  });

  it('shows the lines as the run writes them, then adds only those of the answer that did not stream', async () => {
    let finish: (r: Response) => void = () => {};
    let sent: Recorded | undefined;
    await openTest(['manager'], {
      [`POST /components/${ID}/execute`]: (call) => {
        sent = call;
        return new Promise<Response>((resolve) => (finish = resolve));
      },
    });
    fireEvent.click(button('Run test'));
    await waitFor(() => expect(sent).toBeDefined());
    const runId = (sent?.body as { runId: string } | undefined)?.runId ?? '';
    const socket = sockets.at(-1) as ServedSocket;
    expect(socket.lastSubscribe()).toMatchObject({ collectionName: 'testLogs', filter: { runId: [runId] } });
    const date = '2026-12-06T10:00:00.000Z';
    const line = (seq: number, message: string) => ({
      _id: `${runId}:${seq}`,
      runId,
      userId: 'u1',
      seq,
      level: 'info',
      message,
      date,
    });
    // The tab's live socket may carry an earlier test's subscriptions: this run's is found by its filter.
    const subscriptionId = socket.idOf({ runId: [runId] });
    await act(async () => {
      socket.fire(
        'change',
        hex({
          subscriptionId,
          data: { operationType: 'insert', documentKey: { _id: `${runId}:0` }, fullDocument: line(0, 'first') },
        }),
      );
      await new Promise((r) => setTimeout(r, 5));
    });
    const region = screen.getByRole('log', { name: 'Logs' });
    await waitFor(() => expect(region.textContent).toContain('first'));
    expect(button('Run test').className).toContain('loading');

    const entry = (message: string) => ({ level: 'info', message, date });
    finish(ok({ output: { n: 1 }, logs: [entry('first'), entry('second')], rt_context: {} }));
    await waitFor(() => expect(region.textContent).toContain('second'));
    expect([...region.children].map((c) => c.textContent)).toEqual([`${date} [info] first`, `${date} [info] second`]);
    await waitFor(() => expect(socket.unsubscribes().filter((id) => id === subscriptionId)).toHaveLength(1));
  });

  it("loads a test file's rows into ctx.input under the chosen port", async () => {
    await openTest(['manager'], {
      'POST /components/test-file': () =>
        ok({ fileName: 'dealers.csv', format: 'csv', fields: ['dealerId'], rowCount: 1, rows: [{ dealerId: 'D7' }] }),
    });
    fireEvent.click(button('Load ...'));
    const dialog = await screen.findByRole('dialog', { name: 'Load test data' });
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['dealerId\nD7\n'], 'dealers.csv', { type: 'text/csv' })] } });
    await screen.findByText('1 row loaded into ctx.input.dealers');
    await waitFor(() => expect(screen.getByRole('region', { name: 'ctx.input' }).textContent).toContain('"dealerId": "D7"'));
  });
});
