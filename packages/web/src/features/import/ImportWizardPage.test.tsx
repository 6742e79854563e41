import '../../../test/dom.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { pipeline, staticTypes, uploadView } from '../../../test/fixtures.ts';
import { FakeSocket } from '../../../test/live.ts';
import { button, confirmation } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { configureLive } from '../../ground/live/configure.ts';

const PIPELINES = {
  staticTypes: staticTypes(),
  pipelines: [
    pipeline('00000000-0000-4000-8000-000000000001', 'country b'),
    pipeline('00000000-0000-4000-8000-000000000002', 'Country A'),
    pipeline('00000000-0000-4000-8000-000000000003', 'Master', { isMaster: true }),
    pipeline('00000000-0000-4000-8000-000000000004', 'no brand', { brand: null }),
  ],
};

const upload = (id: string, status: string, enabled = true) =>
  uploadView(id, '00000000-0000-4000-8000-000000000002', { status, enabled, createdAt: '2026-11-22T08:00:00.000Z' });

beforeEach(() => {
  configureLive({ createSocket: (auth) => new FakeSocket(auth) });
});

/**
 * Clicks 'Next step' once it takes clicks: enabled, and no longer loading (antd drops the loading
 * state of a button an effect after its prop, and ignores clicks until then).
 */
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
    'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [upload('u-old', 'invalid', false)] }]),
    'GET /imports/listScheduled': () => ok({ repeatable: [], scheduled: [], imports: [] }),
    ...extra,
  });
  const app = renderApp('/import/upload');
  await app.opened('/import/upload');
  await screen.findByText('Country A');
  return Object.assign(server, { app });
}

const names = () =>
  [...document.querySelectorAll('.gdb-pipeline-picker [role=option]')].map(
    (li) => li.querySelector('.ant-typography')?.textContent,
  );

describe('Import wizard', () => {
  it('shows the five steps and lists masters first, then by name ignoring case, without versions for a user', async () => {
    await open(['user']);
    for (const title of ['Select locale', 'Choose your file', 'Process your file', 'Plan your import', 'Import details'])
      expect(screen.getByText(title)).toBeDefined();
    expect(names()).toEqual(['Master', 'Country A', 'country b', 'no brand']);
    expect(screen.queryByText('v3')).toBeNull();
    expect(screen.queryAllByLabelText('locked')).toHaveLength(0);
    expect(button('Next step').hasAttribute('disabled')).toBe(true);
  });

  it('chooses a pipeline with the keyboard: one Tab stop, arrows move, Enter selects', async () => {
    await open(['user']);
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.tabIndex)).toEqual([0, -1, -1, -1]);
    const first = options[0] as HTMLElement;
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Country A');
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Enter' });
    await waitFor(() => expect(screen.getByRole('option', { name: 'Country A' }).getAttribute('aria-selected')).toBe('true'));
    expect(screen.getAllByRole('option').map((o) => o.tabIndex)).toEqual([-1, 0, -1, -1]);
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'End' });
    expect(document.activeElement?.textContent).toBe('no brand');
    expect(button('Next step').hasAttribute('disabled')).toBe(false);
  });

  it('shows versions and lock icons to a manager', async () => {
    await open(['manager']);
    expect(screen.getAllByText('v3')).toHaveLength(4);
    expect(screen.getAllByLabelText('locked')).toHaveLength(4);
  });

  it("offers a drop zone with the size tip and the 'Last uploaded list' with toggles, and sends the chosen file", async () => {
    const server = await open(['user'], {
      'POST /uploads/disable': () => ok(upload('u-old', 'invalid', true)),
      'POST /uploads': () => ok(['u-new']),
    });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await screen.findByText('Last uploaded list');
    expect(screen.getByText('Files must be less than 20 MiB')).toBeDefined();
    await screen.findByText('u-old.csv');
    // The newest upload is invalid and no file is chosen: the step is not ready.
    expect(button('Next step').hasAttribute('disabled')).toBe(true);

    // The switch says what it does beside it.
    expect(screen.getByText('Take in next run')).toBeDefined();
    fireEvent.click(screen.getByLabelText('Take in next run: u-old.csv'));
    await waitFor(() => expect(server.count('POST /uploads/disable')).toBe(1));
    expect(server.calls.find((c) => c.path === '/uploads/disable')?.body).toEqual({ id: 'u-old', enabled: true });

    const input = document.querySelector('input[type=file]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File(['a,b\n1,2\n'], 'rows.csv', { type: 'text/csv' })] } });
    await screen.findByText('rows.csv');
    await nextStep();
    await waitFor(() => expect(server.count('POST /uploads')).toBe(1));
    const init = server.fetchMock.mock.calls.find(([url]) => String(url).endsWith('/uploads'))?.[1];
    const form = init?.body;
    if (!(form instanceof FormData)) throw new Error('not a form');
    expect(form.get('pipelineId')).toBe('00000000-0000-4000-8000-000000000002');
    expect(form.get('main')).toBeInstanceOf(File);
    expect(form.get('sentFrom')).toBe('wizard');
    expect(await screen.findByText('Uploaded successfully!')).toBeTruthy();
    await waitFor(() => expect(document.querySelector('.gdb-wizard-step')?.getAttribute('data-step')).toBe('2'));
  });

  it('marks an upload an import took with its date and import, switched off, and one sent from the testing view', async () => {
    const imported = uploadView('u-done', '00000000-0000-4000-8000-000000000002', {
      enabled: false,
      importedAt: '2026-11-22T09:00:00.000Z',
      importedBy: 'abcdef12-0000-4000-8000-000000000009',
    });
    const tested = uploadView('u-test', '00000000-0000-4000-8000-000000000002', { sentFrom: 'testing' });
    await open(['user'], { 'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [tested, imported] }]) });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    const row = (await screen.findByText('u-done.csv')).closest('li') as HTMLElement;
    expect(row.textContent).toMatch(/Imported \d{4}-\d\d-\d\d \d\d:\d\d:\d\d by import abcdef12/);
    expect(within(row).getByRole('switch').getAttribute('aria-checked')).toBe('false');
    const other = screen.getByText('u-test.csv').closest('li') as HTMLElement;
    expect(within(other).getByText('Testing View')).toBeDefined();
    expect(other.textContent).not.toMatch(/Imported/);
  });

  it('names the missing properties of a pipeline that cannot run and keeps the step closed', async () => {
    await open(['user']);
    fireEvent.click(screen.getByText('no brand'));
    await nextStep();
    await screen.findByText('Pipeline data sources main cannot be run because of missing properties : Brand');
    const input = document.querySelector('input[type=file]');
    if (!(input instanceof HTMLInputElement)) throw new Error('no file input');
    fireEvent.change(input, { target: { files: [new File(['a'], 'rows.csv', { type: 'text/csv' })] } });
    await screen.findByText('rows.csv');
    expect(button('Next step').hasAttribute('disabled')).toBe(true);
    fireEvent.click(button('Prev step'));
    expect(within(document.body).getByText('Master')).toBeDefined();
  });

  it("asks 'Do you want to run the pipeline : {name}', runs now and shows the import details", async () => {
    const server = await open(['user'], {
      'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [upload('u-ok', 'valid')] }]),
      'GET /imports/job': () => ok({ imp: null, job: null, others: [] }),
      'POST /imports': () => ok({ jobId: 'j1', importId: 'i1' }),
    });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await screen.findByText('u-ok.csv');
    await nextStep();
    await waitFor(() => expect(document.querySelector('.gdb-wizard-step')?.getAttribute('data-step')).toBe('2'));
    await nextStep();
    await screen.findByLabelText('Later');
    expect(screen.queryByLabelText('Repeat')).toBeNull();
    await nextStep();
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to run the pipeline : Country A');
    fireEvent.click(button('Yes', question));
    await screen.findByText('The import has been started.');
    const body = server.calls.find((c) => c.method === 'POST' && c.path === '/imports')?.body;
    expect(body).toMatchObject({ pipelineId: '00000000-0000-4000-8000-000000000002', kind: 'immediate', repeatPattern: '' });
    expect(server.count('POST /uploads')).toBe(0);
    // After the last step, Next says it starts over.
    fireEvent.click(button('Next step: start over'));
    await waitFor(() => expect(document.querySelector('.gdb-wizard-step')?.getAttribute('data-step')).toBe('0'));
    expect(button('Next step')).toBeDefined();
  });

  it('blocks the schedule while an import runs and cancels it on Yes', async () => {
    const running = {
      _id: 'i9',
      pipeline: '00000000-0000-4000-8000-000000000002',
      pipelineName: 'Country A',
      pipelineVersion: 3,
      job: 'j9',
      jobKind: 'scheduled',
      parentImport: null,
      scheduledAt: null,
      startedAt: null,
      endAt: null,
      state: 'busy',
      success: false,
      progress: 0,
      user: null,
      userFirstName: null,
      destinations: [],
      createdAt: '2026-11-22T08:00:00.000Z',
    };
    let current: unknown = { imp: running, job: null, others: [] };
    const server = await open(['manager'], {
      'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [upload('u-ok', 'valid')] }]),
      'GET /imports/job': () => ok(current),
      'DELETE /imports': () => {
        current = { imp: null, job: null, others: [] };
        return ok(null);
      },
    });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await screen.findByText('u-ok.csv');
    await nextStep();
    await waitFor(() => expect(document.querySelector('.gdb-wizard-step')?.getAttribute('data-step')).toBe('2'));
    await nextStep();
    await screen.findByText('Cannot edit the import. An import is already running.');
    expect(button('Next step').hasAttribute('disabled')).toBe(true);
    fireEvent.click(button('Cancel the current import'));
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to cancel the import?');
    fireEvent.click(button('Yes', question));
    await screen.findByText('The current import is cancelled.');
    expect(server.calls.find((c) => c.method === 'DELETE')?.search).toBe('?importId=i9');
    await waitFor(() => expect(screen.queryByText('Cannot edit the import. An import is already running.')).toBeNull());
    expect(button('Prev step').hasAttribute('disabled')).toBe(false);
    fireEvent.click(button('Prev step'));
    await waitFor(() => expect(document.querySelector('.gdb-wizard-step')?.getAttribute('data-step')).toBe('0'));
  });

  it('fills the scheduler from the existing repeat job and asks before switching it to Now', async () => {
    const at = new Date(2026, 11, 4, 6, 30).toISOString();
    const waiting = {
      _id: 'i5',
      pipeline: '00000000-0000-4000-8000-000000000002',
      pipelineName: 'Country A',
      pipelineVersion: 3,
      job: 'j5',
      jobKind: 'repeat',
      parentImport: null,
      scheduledAt: at,
      startedAt: null,
      endAt: null,
      state: 'pending',
      success: false,
      progress: 0,
      user: null,
      userFirstName: null,
      destinations: [],
      createdAt: '2026-11-22T08:00:00.000Z',
    };
    const repeatJob = {
      _id: '00000000-0000-4000-8000-0000000000a5',
      pipeline: { _id: '00000000-0000-4000-8000-000000000002', name: 'Country A', version: 3 },
      scheduledBy: { _id: 'u1', userName: 'ada.lovelace' },
      lastExecuted: null,
      nextImport: { _id: 'i5', scheduledAt: at },
      jobKind: 'repeat',
      state: 'active',
      repeatPattern: '30 6 * * fri',
      importData: {
        kind: 'repeat',
        scheduledDate: null,
        scheduledTime: null,
        repeatPattern: '30 6 * * fri',
        restartOnError: false,
        listPipelines: [],
        timezone: 'UTC',
      },
      createdAt: '2026-11-22T08:00:00.000Z',
    };
    let current: unknown = { imp: waiting, job: repeatJob, others: [] };
    let scheduled: unknown = { repeatable: [repeatJob], scheduled: [], imports: [waiting] };
    const server = await open(['manager'], {
      'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [upload('u-ok', 'valid')] }]),
      'GET /imports/job': () => ok(current),
      'GET /imports/listScheduled': () => ok(scheduled),
      'DELETE /imports/job': () => {
        current = { imp: null, job: null, others: [] };
        scheduled = { repeatable: [], scheduled: [], imports: [] };
        return ok(null);
      },
    });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await screen.findByText('u-ok.csv');
    await nextStep();
    await waitFor(() => expect(document.querySelector('.gdb-wizard-step')?.getAttribute('data-step')).toBe('2'));
    await nextStep();
    await screen.findByText('The next import is scheduled at 2026-12-04 06:30:00.');
    const repeat = screen.getByLabelText('Repeat');
    if (!(repeat instanceof HTMLInputElement)) throw new Error('no radio');
    expect(repeat.checked).toBe(true);
    expect(screen.getByText('fri')).toBeDefined();
    expect(screen.getByText('06:30')).toBeDefined();
    // The pipeline's jobs, in the compact list.
    await screen.findByText('30 6 * * fri');

    fireEvent.click(screen.getByLabelText('Now'));
    let question = await confirmation();
    expect(question.textContent).toContain('If you select now and execute it will delete the last import, Do you want continue?');
    fireEvent.click(button('No', question));
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).toBeNull());
    expect(repeat.checked).toBe(true);
    expect(server.count('DELETE /imports/job')).toBe(0);

    fireEvent.click(screen.getByLabelText('Now'));
    question = await confirmation();
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(server.count('DELETE /imports/job')).toBe(1));
    const now = screen.getByLabelText('Now');
    await waitFor(() => expect(now instanceof HTMLInputElement && now.checked).toBe(true));
    await waitFor(() => expect(screen.queryByText(/The next import is scheduled at/)).toBeNull());
    await waitFor(() => expect(screen.queryByText('30 6 * * fri')).toBeNull());
  });

  it("keeps the scheduler closed until the pipeline's job has loaded, so it cannot undo a choice", async () => {
    let answer: (r: Response) => void = () => undefined;
    await open(['manager'], {
      'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [upload('u-ok', 'valid')] }]),
      'GET /imports/job': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    fireEvent.click(screen.getByText('Country A'));
    await nextStep();
    await screen.findByText('u-ok.csv');
    await nextStep();
    await waitFor(() => expect(document.querySelector('.gdb-wizard-step')?.getAttribute('data-step')).toBe('2'));
    await nextStep();
    const repeat = await screen.findByLabelText('Repeat');
    if (!(repeat instanceof HTMLInputElement)) throw new Error('no radio');
    expect(repeat.disabled).toBe(true);

    answer(ok({ imp: null, job: null, others: [] }));
    await waitFor(() => expect(repeat.disabled).toBe(false));
    fireEvent.click(repeat);
    await waitFor(() => expect(repeat.checked).toBe(true));
    // The loaded answer came before the choice: nothing resets it afterwards.
    await new Promise((r) => setTimeout(r, 100));
    expect(repeat.checked).toBe(true);
  });

  it('runs the checked country pipelines of a master in order, then opens the logbook for a manager', async () => {
    const countries = [PIPELINES.pipelines[0], PIPELINES.pipelines[1]];
    const server = await open(['manager'], {
      'GET /uploads/last-all': () => ok([{ dataSubKind: 'main', data: [upload('u-ok', 'valid')] }]),
      'GET /imports/job': () => ok({ imp: null, job: null, others: [] }),
      'GET /pipelines/pipelinesOfMaster': () => ok(countries),
      'POST /imports': () => ok({ jobId: 'j7', importId: 'i7' }),
      'GET /imports/listAllFilters': () => ok({ brands: [], locales: [], productLines: [], datakinds: [], users: [] }),
      'GET /imports/listAll': () => ok({ records: [], totalCount: 0 }),
    });
    fireEvent.click(screen.getByText('Master'));
    await nextStep();
    await screen.findByText('u-ok.csv');
    await nextStep();
    await waitFor(() => expect(document.querySelector('.gdb-wizard-step')?.getAttribute('data-step')).toBe('2'));
    await nextStep();
    fireEvent.click(await screen.findByText('Country Pipelines of Master'));
    await screen.findByText('country b');
    expect(button('Run selected pipelines').disabled).toBe(true);
    fireEvent.click(screen.getByText('country b'));
    fireEvent.click(screen.getByText('Country A'));
    fireEvent.click(button('Run selected pipelines'));
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to run the pipeline : Master');
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(server.app.where()).toBe('/consult/import?importId=i7'));
    expect(server.calls.find((c) => c.method === 'POST' && c.path === '/imports')?.body).toMatchObject({
      pipelineId: '00000000-0000-4000-8000-000000000003',
      kind: 'sequential',
      restartOnError: true,
      repeatPattern: '',
      listPipelines: ['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001'],
    });
  });
});
