import '../../../test/dom.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { pipeline, staticTypes, uploadView } from '../../../test/fixtures.ts';
import { FakeSocket, hex, openedSockets } from '../../../test/live.ts';
import { button, confirmation } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';

// The wizard as a user meets it: someone else's repeat job, the uploads a run
// takes, why Next is closed, the banner that follows the import, and where the focus goes.

const PID = '00000000-0000-4000-8000-000000000002';
const PIPELINES = { staticTypes: staticTypes(), pipelines: [pipeline(PID, 'Country A')] };
const upload = (id: string, fields: Record<string, unknown> = {}) => uploadView(id, PID, fields);
const VALID = { 'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [upload('u-ok')] }]) };

const job = (id: string, kind: 'repeat' | 'scheduled', by: string) => ({
  _id: id,
  pipeline: { _id: PID, name: 'Country A', version: 3 },
  scheduledBy: { _id: 'u1', userName: by },
  lastExecuted: null,
  nextImport: { _id: 'i5', scheduledAt: '2099-01-01T06:00:00.000Z' },
  jobKind: kind,
  state: 'active',
  repeatPattern: kind === 'repeat' ? '0 6 * * *' : '',
  importData: {
    kind,
    scheduledDate: kind === 'scheduled' ? '2099-01-01' : null,
    scheduledTime: kind === 'scheduled' ? '10:00' : null,
    repeatPattern: kind === 'repeat' ? '0 6 * * *' : '',
    restartOnError: false,
    listPipelines: [],
    timezone: 'UTC',
  },
  createdAt: '2026-11-22T08:00:00.000Z',
});

const sockets = openedSockets((auth) => new FakeSocket(auth));

const stepShown = () => document.querySelector('.gdb-wizard-step')?.getAttribute('data-step');

async function nextStep() {
  await waitFor(() => {
    const next = button('Next step');
    expect(next.disabled || next.classList.contains('ant-btn-loading')).toBe(false);
  });
  fireEvent.click(button('Next step'));
}

async function open(roles: string[], extra: Record<string, Handler> = {}) {
  const server = signedInAs(roles, {
    'GET /users/pipelines': () => ok(PIPELINES),
    'GET /imports/listScheduled': () => ok({ repeatable: [], scheduled: [], imports: [] }),
    'GET /imports/job': () => ok({ imp: null, job: null, others: [] }),
    ...VALID,
    ...extra,
  });
  const app = renderApp('/import/upload');
  await app.opened('/import/upload');
  await screen.findByText('Country A');
  return Object.assign(server, { app });
}

/** From step 1 to step 4 with the last valid upload. */
async function toPlan() {
  fireEvent.click(screen.getByText('Country A'));
  await nextStep();
  await screen.findByText('u-ok.csv');
  await nextStep();
  await waitFor(() => expect(stepShown()).toBe('2'));
  await nextStep();
  await waitFor(() => expect(stepShown()).toBe('3'));
}

describe('Import wizard, as a user meets it', () => {
  it("shows someone else's repeat job read-only and runs Now beside it, without touching it", async () => {
    const server = await open(['user'], {
      'GET /imports/job': () => ok({ imp: null, job: null, others: [job('j-rep', 'repeat', 'ada.lovelace')] }),
      'POST /imports': () => ok({ jobId: 'j1', importId: 'i1' }),
    });
    await toPlan();
    await screen.findByText(/A repeat job set by ada\.lovelace runs this pipeline on '0 6 \* \* \*'/);
    const now = screen.getByLabelText('Now');
    expect(now instanceof HTMLInputElement && now.checked).toBe(true);
    expect(screen.queryByText('Cancel the current import')).toBeNull();
    await nextStep();
    fireEvent.click(button('Yes', await confirmation()));
    await screen.findByText('The import has been started.');
    expect(server.count('POST /imports')).toBe(1);
    expect(server.count('POST /imports/job')).toBe(0);
    expect(server.count('DELETE /imports/job')).toBe(0);
    // The user stays in step 5 with the run's logs; their logbook, where it is listed too, a link away.
    expect(server.app.where()).toBe('/import/upload');
    const link = screen.getByRole('link', { name: 'See this import in the logbook' });
    expect(link.getAttribute('href')).toBe('/consult/import?importId=i1');
  });

  it('lists every upload the run takes: each enabled valid one per data source', async () => {
    await open(['user'], {
      'GET /uploads/last-all': () =>
        ok([
          {
            dataSubKind: 'main',
            data: [
              upload('u-new'),
              upload('u-older'),
              upload('u-off', { enabled: false }),
              upload('u-bad', { status: 'invalid' }),
            ],
          },
        ]),
    });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await screen.findByText('u-new.csv');
    await nextStep();
    await waitFor(() => expect(stepShown()).toBe('2'));
    await nextStep();
    const list = await screen.findByRole('list', { name: 'Uploads of main this import takes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/\d{4}-.*/, '')),
    ).toEqual(['u-new.csv', 'u-older.csv']);
    // A long name is cut to the row with an ellipsis (its whole text in a tooltip), never widening the card.
    expect(within(list).getByText('u-new.csv').classList.contains('ant-typography-ellipsis')).toBe(true);
  });

  it('says why Next step is closed', async () => {
    await open(['user'], {
      'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [upload('u-bad', { status: 'invalid' })] }]),
    });
    expect(screen.getByText('Choose a pipeline first.')).toBeDefined();
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    const why = await screen.findByText('Choose a file for main: its newest upload is not valid.');
    expect(button('Next step').disabled).toBe(true);
    expect(button('Next step').getAttribute('aria-describedby')).toBe(why.id);
  });

  it("says 'Uploaded successfully!' only when the file was stored", async () => {
    const server = await open(['user'], { 'POST /uploads': () => ok([]) });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    const input = await waitFor(() => {
      const found = document.querySelector('input[type=file]');
      if (!(found instanceof HTMLInputElement)) throw new Error('no file input');
      return found;
    });
    fireEvent.change(input, { target: { files: [new File(['a,b\n1,2\n'], 'rows.csv', { type: 'text/csv' })] } });
    await screen.findByText('rows.csv');
    await nextStep();
    await screen.findByText('Uploading files all failed!');
    expect(screen.queryByText('Uploaded successfully!')).toBeNull();
    expect(server.count('POST /uploads')).toBe(1);
    expect(stepShown()).toBe('1');
  });

  it("moves the focus to the new step's heading and closes the earlier step's toasts", async () => {
    await open(['user'], { 'POST /uploads': () => ok(['u-new']) });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Step 2 of 5: Choose your file'));
    await screen.findByText('u-ok.csv');
    const input = document.querySelector('input[type=file]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File(['a,b\n1,2\n'], 'rows.csv', { type: 'text/csv' })] } });
    await screen.findByText('rows.csv');
    await nextStep();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Step 3 of 5: Process your file'));
    await screen.findByText('Uploaded successfully!');
    await nextStep();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Step 4 of 5: Plan your import'));
    await waitFor(() => expect(screen.queryByText('Uploaded successfully!')).toBeNull());
  });

  it("takes back 'Uploaded successfully!' for a file found invalid, shows its checks oldest first, and its red mark in step 2", async () => {
    let stored = false;
    const sent = { originalFilename: 'rows.csv', createdAt: '2026-11-22T09:00:00.000Z' };
    await open(['user'], {
      'POST /uploads': () => {
        stored = true;
        return ok(['u-new']);
      },
      // The list is read while the new file is being checked.
      'GET /uploads/last-all': () =>
        ok([
          {
            dataSubKind: 'main',
            data: stored ? [upload('u-new', { ...sent, status: 'processing' }), upload('u-ok')] : [upload('u-ok')],
          },
        ]),
    });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await screen.findByText('u-ok.csv');
    const input = document.querySelector('input[type=file]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File(['a,b\n1,2\n'], 'rows.csv', { type: 'text/csv' })] } });
    await screen.findByText('rows.csv');
    await nextStep();
    await screen.findByText('Uploaded successfully!');
    const socket = sockets.at(-1) as FakeSocket;
    if (!socket.connected) socket.open();
    await waitFor(() => expect(() => socket.idOf({ _id: ['u-new'] })).not.toThrow());
    const checked = upload('u-new', { ...sent, status: 'invalid' });
    socket.fire('init', hex({ subscriptionId: socket.idOf({ _id: ['u-new'] }), data: [{ ...checked, createdBy: null }] }));
    await screen.findByText('rows.csv is invalid: see its logs in the next step.');
    await waitFor(() => expect(screen.queryByText('Uploaded successfully!')).toBeNull());

    // The check's lines read from the first to the verdict.
    await waitFor(() => expect(() => socket.idOf({ uploadId: ['u-new'] })).not.toThrow());
    const line = (id: string, message: string, logDate: string) => ({
      _id: id,
      logDate,
      level: 'info',
      message,
      dataSubKind: 'main',
      uploadId: 'u-new',
      importId: null,
    });
    socket.fire(
      'init',
      hex({
        subscriptionId: socket.idOf({ uploadId: ['u-new'] }),
        data: [
          line('l1', 'File rows.csv received.', '2026-11-22T09:00:00.000Z'),
          line('l2', '1 row read.', '2026-11-22T09:00:01.000Z'),
        ],
      }),
    );
    await waitFor(() =>
      expect([...document.querySelectorAll('.gdb-log-message')].map((l) => l.textContent)).toEqual([
        'File rows.csv received.',
        '1 row read.',
      ]),
    );

    // Back in step 2, the list loaded while the file was checked shows it invalid, not still checking.
    fireEvent.click(button('Prev step'));
    const list = await screen.findByRole('list', { name: 'Last uploaded list of main' });
    const row = within(list).getByText('rows.csv').closest('li') as HTMLElement;
    expect(within(row).getByLabelText('invalid')).toBeDefined();
    expect(within(row).queryByLabelText('processing')).toBeNull();
  });

  it('opens the file picker from the drop zone with Space as with Enter', async () => {
    await open(['user']);
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await screen.findByText('u-ok.csv');
    const input = document.querySelector('input[type=file]');
    const zone = input?.closest('[role=button]');
    if (!(input instanceof HTMLInputElement) || !(zone instanceof HTMLElement)) throw new Error('no drop zone');
    const picked = vi.spyOn(input, 'click').mockImplementation(() => {});
    expect(zone.tabIndex).toBe(0);
    fireEvent.keyDown(zone, { key: ' ' });
    expect(picked).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(zone, { key: 'Enter' });
    expect(picked).toHaveBeenCalledTimes(2);
  });

  it('follows the import in the step-5 banner until it is done', async () => {
    await open(['user'], { 'POST /imports': () => ok({ jobId: 'j1', importId: 'i1' }) });
    await toPlan();
    await nextStep();
    fireEvent.click(button('Yes', await confirmation()));
    await screen.findByText('The import has been started.');
    const socket = sockets.at(-1) as FakeSocket;
    if (!socket.connected) socket.open();
    await waitFor(() => expect(() => socket.idOf({ _id: ['i1'] })).not.toThrow());
    const subscriptionId = socket.idOf({ _id: ['i1'] });
    const doc = {
      _id: 'i1',
      pipeline: PID,
      job: 'j1',
      parentImport: null,
      scheduledAt: null,
      startedAt: '2026-11-22T08:00:00.000Z',
      endAt: null,
      state: 'progress',
      success: null,
      progress: 60,
      user: null,
      destinations: [],
      createdAt: '2026-11-22T08:00:00.000Z',
    };
    socket.fire('init', hex({ subscriptionId, data: [doc] }));
    await screen.findByText('The import is running (60 %).');
    const done = { ...doc, state: 'done', success: true, progress: 100, endAt: '2026-11-22T08:01:00.000Z' };
    socket.fire(
      'change',
      hex({ subscriptionId, data: { operationType: 'update', documentKey: { _id: 'i1' }, fullDocument: done } }),
    );
    await screen.findByText('The import is done.');
  });

  it('says a Later job will be changed, names its date in the question, and stays in step 5 with a link to the logbook', async () => {
    const server = await open(['manager'], {
      'GET /imports/job': () => ok({ imp: null, job: job('j-later', 'scheduled', 'ada.lovelace'), others: [] }),
      'POST /imports/job': () => ok({ jobId: 'j-later', importId: 'i2' }),
    });
    await toPlan();
    const later = await screen.findByLabelText('Later');
    await waitFor(() => expect(later instanceof HTMLInputElement && later.checked).toBe(true));
    // Next is no silent reschedule: the step says what it changes.
    await screen.findByText(
      'This pipeline has a scheduled job (2099-01-01 10:00). Next step changes that job to the schedule below; choose Now to delete it and run at once.',
    );
    await nextStep();
    const question = await confirmation();
    expect(question.textContent).toContain(
      'Do you want to run the pipeline : Country A on 2099-01-01 at 10:00, in place of its scheduled job (2099-01-01 10:00)',
    );
    fireEvent.click(button('Yes', question));
    await screen.findByText('The import has been scheduled.');
    // A manager lands where a user does: step 5, with the import in the logbook a link away.
    expect(server.app.where()).toBe('/import/upload');
    const link = screen.getByRole('link', { name: 'See this import in the logbook' });
    expect(link.getAttribute('href')).toBe('/consult/import?importId=i2&time=future');
  });
});
