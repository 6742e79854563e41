import '../../../test/dom.ts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, ok, type Recorded, signedInAs } from '../../../test/fake-api.ts';
import { hex, type ServedSocket, servedSockets } from '../../../test/live.ts';
import { button } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { versionedFields } from '../../../test/versions-fixtures.ts';

const sockets = servedSockets();

const ID = '00000000-0000-4000-8000-000000000001';
const FORM_MODEL = '00000000-0000-4000-8000-000000000010';
const DATE = '2026-12-06T10:00:00.000Z';
const FORM_SCHEMA = {
  type: 'object',
  title: 'Build the sdk',
  required: ['functionName', 'jsCode'],
  properties: {
    functionName: { type: 'string', title: 'Name', minLength: 1, ui: { label: 'Name' } },
    jsCode: { type: 'string', title: 'Code', ui: { label: 'Code', widget: 'code' } },
  },
};

function sdkFunction() {
  const { name: _name, ...fields } = versionedFields(ID, 'unused');
  return {
    ...fields,
    functionName: 'slowly',
    jsCode: "async function () {\n  console.log('first');\n  return 1;\n}",
    testPayload: [21],
    documentation: '',
    input: '',
    output: '',
    error: '',
    modules: [],
  };
}

/** Opens the SDK editor on `slowly`; its test run answers when the test says. */
async function openSdk(execute: (call: Recorded) => Response | Promise<Response>) {
  signedInAs(['super-admin'], {
    'GET /folders/tree': () => ok([]),
    'GET /tags/list': () => ok([]),
    'GET /schemas/byname': () => ok({ _id: FORM_MODEL, name: 'rt-sdk-schema', version: 1, jsonSchema: FORM_SCHEMA }),
    'GET /sdk/find': () => ok(sdkFunction()),
    'GET /sdk/vulnerabilities': () =>
      ok({
        _id: ID,
        checked: true,
        vulnerable: [],
        modules: [],
        message: 'No vulnerable packages',
        error: null,
        advisories: null,
      }),
    'POST /sdk/slowly/execute': execute,
  });
  renderApp(`/manage/sdk?id=${ID}`);
  await screen.findByText('slowly (v.1 - Draft)');
  await waitFor(() => button('Run test'));
}

const line = (runId: string, seq: number, message: string, level = 'info') => ({
  _id: `${runId}:${seq}`,
  runId,
  userId: 'u1',
  seq,
  level,
  message,
  date: DATE,
});

/** Sends a live line to the run's subscription, as the server does while the run goes on. */
async function stream(socket: ServedSocket, runId: string, doc: ReturnType<typeof line>) {
  const subscriptionId = socket.idOf({ runId: [runId] });
  await act(async () => {
    socket.fire(
      'change',
      hex({ subscriptionId, data: { operationType: 'insert', documentKey: { _id: doc._id }, fullDocument: doc } }),
    );
    await new Promise((r) => setTimeout(r, 5));
  });
}

describe('the SDK test area', () => {
  it('shows the lines as the run writes them, in a polite log region, then adds only those of the answer that did not stream', async () => {
    let finish: (r: Response) => void = () => {};
    let sent: Recorded | undefined;
    await openSdk((call) => {
      sent = call;
      return new Promise<Response>((resolve) => (finish = resolve));
    });
    fireEvent.click(button('Run test'));
    // The run starts once its lines are followed on the live channel.
    await waitFor(() => expect(sent).toBeDefined());
    const runId = (sent?.body as { runId: string } | undefined)?.runId ?? '';
    expect(runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sent?.body).toEqual({ payload: [21], runId });
    const socket = sockets.at(-1) as ServedSocket;
    expect(socket.lastSubscribe()).toMatchObject({ collectionName: 'testLogs', filter: { runId: [runId] } });

    await stream(socket, runId, line(runId, 0, 'first'));
    const region = screen.getByRole('log', { name: 'Logs' });
    expect(region.getAttribute('aria-live')).toBe('polite');
    await waitFor(() => expect(region.textContent).toContain('first'));
    expect(button('Run test').className).toContain('loading');
    expect(screen.queryByRole('region', { name: 'Output' })).toBeNull();

    const entry = (message: string, level = 'info') => ({ level, message, date: DATE });
    finish(ok({ output: 42, logs: [entry('first'), entry('second', 'warn')] }));
    await waitFor(() => expect(region.textContent).toContain('second'));
    expect([...region.children].map((c) => c.textContent)).toEqual([`${DATE} [info] first`, `${DATE} [warn] second`]);
    expect((await screen.findByRole('region', { name: 'Output' })).textContent).toBe('42');
    const subscriptionId = socket.idOf({ runId: [runId] });
    await waitFor(() => expect(socket.unsubscribes().filter((id) => id === subscriptionId)).toHaveLength(1));
  });

  it('keeps the lines that streamed when the run fails, and says why it failed', async () => {
    let fail: (r: Response) => void = () => {};
    let sent: Recorded | undefined;
    await openSdk((call) => {
      sent = call;
      return new Promise<Response>((resolve) => (fail = resolve));
    });
    fireEvent.click(button('Run test'));
    await waitFor(() => expect(sent).toBeDefined());
    const runId = (sent?.body as { runId: string } | undefined)?.runId ?? '';
    const socket = sockets.at(-1) as ServedSocket;
    await stream(socket, runId, line(runId, 0, 'before the fall'));
    fail(envelope(42200, 'SDK function "slowly": Error: down', null, 422));
    await screen.findByText('Execute error : SDK function "slowly": Error: down');
    expect(screen.getByRole('log', { name: 'Logs' }).textContent).toBe(`${DATE} [info] before the fall`);
    expect(screen.queryByRole('region', { name: 'Output' })).toBeNull();
  });
});
