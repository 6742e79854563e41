import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, type Recorded, signedInAs } from '../../../test/fake-api.ts';
import { FakeSocket, hex, openedSockets } from '../../../test/live.ts';
import { button, confirmation, queryButton } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';

const record = (id: string, name: string, fields: Record<string, unknown> = {}) => ({
  _id: id,
  pipeline: 'p1',
  pipelineName: name,
  pipelineVersion: 1,
  job: 'j1',
  jobKind: 'immediate',
  parentImport: null,
  scheduledAt: null,
  startedAt: new Date(2026, 10, 22, 9, 5, 7).toISOString(),
  endAt: null,
  state: 'done',
  success: true,
  progress: 100,
  user: 'u1',
  userFirstName: 'Ada',
  destinations: ['out', 'store'],
  createdAt: '2026-11-22T08:00:00.000Z',
  ...fields,
});

const RECORDS = [
  record('i1', 'Running pipe', { state: 'busy', success: false }),
  record('i2', 'Done pipe', { userFirstName: null, destinations: [] }),
];
const FILTERS = { brands: [], locales: [], productLines: [], datakinds: [], users: [{ _id: 'u1', firstName: 'Ada' }] };

/** Every socket the pages opened, newest last (the tab's client may keep one across tests). */
const sockets = openedSockets((auth) => new FakeSocket(auth));

async function open(roles: string[], extra: Record<string, (call: Recorded) => Response> = {}) {
  const server = signedInAs(roles, {
    'GET /imports/listAllFilters': () => ok(FILTERS),
    'GET /imports/listAll': () => ok({ records: RECORDS, totalCount: 20 }),
    ...extra,
  });
  const app = renderApp('/consult/import');
  await app.opened('/consult/import');
  await screen.findByText('Running pipe');
  return server;
}

const cells = (name: string) =>
  [...(screen.getByText(name).closest('tr')?.querySelectorAll('td') ?? [])].map((td) => td.textContent);
const listCalls = (server: { calls: Recorded[] }) => server.calls.filter((c) => c.path === '/imports/listAll');

describe('Logbook', () => {
  it('lists imports with their columns, a Stop button only for running ones, and asks the first page of 9', async () => {
    const server = await open(['manager']);
    for (const title of ['Pipeline', 'scheduled at', 'Started at', 'End at', 'Destination', 'State', 'Success', 'User', 'Stop'])
      expect(screen.getByText(title, { selector: 'th' })).toBeDefined();
    expect(cells('Running pipe')).toEqual([
      'Running pipe',
      '-',
      '2026-11-22 09:05:07',
      '-',
      'out, store',
      'busy',
      'false (Running)',
      'Ada',
      'Stop',
    ]);
    expect(cells('Done pipe')).toEqual(['Done pipe', '-', '2026-11-22 09:05:07', '-', '', 'done', 'true (Succeeded)', '-', '']);
    const first = new URLSearchParams(listCalls(server)[0]?.search);
    expect(Object.fromEntries(first)).toEqual({ pageNumber: '0', nbItemsPerPage: '9', time: 'past' });
    expect(queryButton('Stop all pipelines')).toBeUndefined();
    expect(screen.getByText('Details')).toBeDefined();
  });

  it('titles the details panel after the chosen import, chosen by a button the keyboard reaches', async () => {
    await open(['manager']);
    const choose = screen.getByRole('button', { name: 'Details of Done pipe 2026-11-22 09:05:07' });
    expect(choose.tabIndex).toBe(0);
    fireEvent.click(choose);
    await screen.findByText('Details for pipeline : Done pipe started at : 2026-11-22 09:05:07');
  });

  it('empties the details panel when the filters change, as the chosen import may no longer be listed', async () => {
    await open(['manager']);
    fireEvent.click(screen.getByRole('button', { name: 'Details of Done pipe 2026-11-22 09:05:07' }));
    await screen.findByText('Details for pipeline : Done pipe started at : 2026-11-22 09:05:07');
    fireEvent.click(screen.getByLabelText('Time'));
    await screen.findByText('Details');
    expect(screen.queryByText(/^Details for pipeline : Done pipe/)).toBeNull();
  });

  it('sends one success value, never both switches off, and pages on', async () => {
    const server = await open(['manager']);
    fireEvent.click(screen.getByLabelText('Success False: failed, running or pending'));
    await waitFor(() => expect(listCalls(server).at(-1)?.search).toContain('success=true'));
    // Turning the last one off turns the other on.
    fireEvent.click(screen.getByLabelText('Success True: succeeded'));
    await waitFor(() => expect(listCalls(server).at(-1)?.search).toContain('success=false'));
    expect(screen.getByLabelText('Success False: failed, running or pending').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByLabelText('Success True: succeeded').getAttribute('aria-checked')).toBe('false');
    fireEvent.click(screen.getByLabelText('Time'));
    await waitFor(() => expect(listCalls(server).at(-1)?.search).toContain('time=future'));
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(listCalls(server).at(-1)?.search).toContain('pageNumber=1'));
  });

  it('shows an import created meanwhile at the top of the first page, without reload', async () => {
    let records = RECORDS;
    const server = await open(['manager'], { 'GET /imports/listAll': () => ok({ records, totalCount: 20 }) });
    await waitFor(() => expect(sockets.length).toBeGreaterThan(0));
    const socket = sockets.at(-1) as FakeSocket;
    if (!socket.connected) socket.open();
    await waitFor(() => expect(() => socket.idOf({})).not.toThrow());
    const feed = socket.idOf({});
    const live = { _id: 'i1', pipeline: 'p1', job: 'j1', parentImport: null, scheduledAt: null, endAt: null, progress: 0 };
    socket.fire(
      'init',
      hex({
        subscriptionId: feed,
        data: [
          {
            ...live,
            startedAt: null,
            state: 'busy',
            success: false,
            user: null,
            destinations: [],
            createdAt: '2026-11-22T08:00:00.000Z',
          },
        ],
      }),
    );
    const before = listCalls(server).length;

    records = [record('i3', 'New pipe', { state: 'pending', success: false }), ...RECORDS];
    const inserted = {
      ...live,
      _id: 'i3',
      startedAt: null,
      state: 'pending',
      success: false,
      user: null,
      destinations: [],
      createdAt: '2026-11-22T09:00:00.000Z',
    };
    socket.fire(
      'change',
      hex({ subscriptionId: feed, data: { operationType: 'insert', documentKey: { _id: 'i3' }, fullDocument: inserted } }),
    );
    await screen.findByText('New pipe');
    expect(listCalls(server).length).toBe(before + 1);
  });

  it("opens for a plain user on their pipelines' imports, without Stop and without following every import", async () => {
    await open(['user']);
    expect(screen.queryByText('Stop', { selector: 'th' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Stop all pipelines' })).toBeNull();
    await waitFor(() => expect(sockets.length).toBeGreaterThan(0));
    const socket = sockets.at(-1) as FakeSocket;
    if (!socket.connected) socket.open();
    await waitFor(() => expect(socket.subscribes().length).toBeGreaterThan(0));
    // The tab's socket may carry an earlier page's subscriptions: only those still open count.
    const closed = new Set(socket.unsubscribes());
    const active = socket.subscribes().filter((s) => !closed.has(s.subscriptionId));
    expect(active.some((s) => s.collectionName === 'imports' && Object.keys(s.filter ?? {}).length === 0)).toBe(false);
  });

  it("stops one import with 'Pipeline process aborted'", async () => {
    const server = await open(['manager'], { 'POST /imports/abort': () => ok({ importId: 'i1', state: 'aborted' }) });
    fireEvent.click(button('Stop'));
    await screen.findByText('Pipeline process aborted');
    expect(server.calls.find((c) => c.path === '/imports/abort')?.body).toEqual({ importId: 'i1' });
  });

  it("lets a super-admin stop all pipelines after 'Do you want to stop all pipelines ?'", async () => {
    const server = await open(['super-admin'], { 'POST /imports/abort-all': () => ok(true) });
    fireEvent.click(button('Stop all pipelines'));
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to stop all pipelines ?');
    fireEvent.click(button('Yes', question));
    await screen.findByText('All pipelines are now stopping');
    expect(server.count('POST /imports/abort-all')).toBe(1);
  });
});
