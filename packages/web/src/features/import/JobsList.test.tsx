import '../../../test/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import { describe, expect, it } from 'vitest';
import { fakeApi, ok, type Recorded, signedInAs, signIn } from '../../../test/fake-api.ts';
import { button, confirmation, queryButton } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { createQueryClient } from '../../app/AppRoot.tsx';
import { JobsList } from './JobsList.tsx';
import { whenText } from './jobs-rules.ts';

const job = (id: string, name: string | null, fields: Record<string, unknown> = {}) => ({
  _id: id,
  pipeline: name ? { _id: `p-${id}`, name, version: 1 } : null,
  scheduledBy: { _id: 'u1', userName: 'ada.lovelace' },
  lastExecuted: null,
  nextImport: { _id: null, scheduledAt: new Date(2026, 11, 1, 6, 30).toISOString() },
  jobKind: 'repeat' as const,
  state: 'active',
  repeatPattern: '30 6 * * fri',
  importData: {
    kind: 'repeat' as const,
    scheduledDate: null,
    scheduledTime: null,
    repeatPattern: '30 6 * * fri',
    restartOnError: false,
    listPipelines: [],
    timezone: 'UTC',
  },
  createdAt: '2026-11-22T08:00:00.000Z',
  ...fields,
});

const SCHEDULED = {
  repeatable: [
    job('00000000-0000-4000-8000-0000000000a1', 'Weekly prices'),
    job('00000000-0000-4000-8000-0000000000a2', null, {
      repeatPattern: '0 8 15 * *',
      lastExecuted: new Date(2026, 10, 15, 8).toISOString(),
    }),
  ],
  scheduled: [],
  imports: [],
};

const rows = () => [...document.querySelectorAll('tr.gdb-job-row')];
const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => td.textContent);

describe('whenText', () => {
  it('writes repeat patterns as cron text, with Unknown for a weekday out of mon to sun', () => {
    const base = job('j', 'x');
    expect(whenText({ ...base, jobKind: 'repeat', repeatPattern: '5 7 * * *' })).toBe('5 7 * * *');
    expect(whenText({ ...base, jobKind: 'repeat', repeatPattern: '5 7 * * sun' })).toBe('5 7 * * sun');
    expect(whenText({ ...base, jobKind: 'repeat', repeatPattern: '5 7 * * funday' })).toBe('5 7 * * Unknown');
    expect(whenText({ ...base, jobKind: 'repeat', repeatPattern: '5 7 31 * *' })).toBe('5 7 31 * *');
    expect(whenText({ ...base, jobKind: 'repeat', repeatPattern: 'H 4' })).toBe('H 4');
    expect(
      whenText({
        ...base,
        jobKind: 'scheduled',
        importData: { ...base.importData, kind: 'scheduled', scheduledDate: '2026-12-01', scheduledTime: '10:30' },
      }),
    ).toBe('2026-12-01 10:30');
  });
});

describe('Manage jobs', () => {
  async function open(extra: Record<string, (call: Recorded) => Response> = {}) {
    const server = signedInAs(['admin'], {
      'GET /imports/listScheduled': () => ok(SCHEDULED),
      ...extra,
    });
    const app = renderApp('/import/jobs');
    await app.opened('/import/jobs');
    await screen.findByText('Weekly prices');
    return server;
  }

  it('lists the jobs with their columns, styles a job whose pipeline is missing, and searches', async () => {
    await open();
    expect(screen.getByText('Jobs')).toBeDefined();
    for (const title of ['Pipeline name', 'When', 'Next run', 'Last run', 'Scheduled by'])
      expect(screen.getByText(title, { selector: 'th' })).toBeDefined();
    // docs/product.md §1.3: When, Next run and Last run 180 px, Scheduled by 200 px; the name takes
    // the rest (450 px on a wide window), and below 300 px for it the table scrolls sideways.
    const widths = [...document.querySelectorAll('.gdb-jobs colgroup col')].map((c) => (c as HTMLElement).style.width);
    expect(widths.slice(-5)).toEqual(['', '180px', '180px', '180px', '200px']);
    expect(document.querySelector<HTMLElement>('.gdb-jobs table')?.style.width).toBe('1072px');
    const [weekly, missing] = rows();
    if (!weekly || !missing) throw new Error('rows missing');
    // The pattern's cron text, and beneath it the same in words.
    expect(cells(weekly).slice(1)).toEqual([
      'Weekly prices',
      '30 6 * * frievery Friday at 06:30',
      '2026-12-01 06:30:00',
      'n/a',
      'ada.lovelace',
    ]);
    expect(cells(missing).slice(1, 5)).toEqual([
      'Pipeline not found',
      '0 8 15 * *on day 15 of every month at 08:00',
      '2026-12-01 06:30:00',
      '2026-11-15 08:00:00',
    ]);
    expect(missing.classList.contains('gdb-job-missing')).toBe(true);
    expect(weekly.classList.contains('gdb-job-missing')).toBe(false);
    fireEvent.change(screen.getByLabelText('Search jobs'), { target: { value: 'WEEKLY' } });
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('deletes the selected jobs after a confirmation and says so; Delete is disabled while none is selected', async () => {
    const server = await open({ 'DELETE /imports/job': () => ok(null) });
    expect(button('Delete').disabled).toBe(true);
    const first = rows()[0]?.querySelector('input[type=checkbox]');
    if (!first) throw new Error('no checkbox');
    fireEvent.click(first);
    await waitFor(() => expect(button('Delete').disabled).toBe(false));
    fireEvent.click(button('Delete'));
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to delete the selected jobs?');
    expect(server.count('DELETE /imports/job')).toBe(0);
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(server.count('DELETE /imports/job')).toBe(1));
    await screen.findByText('The selected jobs have been deleted.');
    expect(server.calls.find((c) => c.method === 'DELETE')?.search).toBe('?jobId=00000000-0000-4000-8000-0000000000a1');
  });
});

describe('Jobs list, compact', () => {
  function show(data: unknown, pipelineId?: string) {
    signIn();
    fakeApi({ 'GET /imports/listScheduled': () => ok(data) });
    const client = createQueryClient();
    render(
      <ConfigProvider theme={{ token: { motion: false } }}>
        <App>
          <QueryClientProvider client={client}>
            <JobsList compact {...(pipelineId ? { pipelineId } : {})} />
          </QueryClientProvider>
        </App>
      </ConfigProvider>,
    );
  }

  it('hides the title, search, selection and Delete', async () => {
    show(SCHEDULED);
    await screen.findByText('Weekly prices');
    expect(screen.queryByText('Jobs')).toBeNull();
    expect(screen.queryByLabelText('Search jobs')).toBeNull();
    expect(queryButton('Delete')).toBeUndefined();
    expect(document.querySelector('tr.gdb-job-row input[type=checkbox]')).toBeNull();
  });

  it('hides the list when it is empty', async () => {
    show(SCHEDULED, 'p-none');
    await waitFor(() => expect(document.querySelector('.gdb-jobs')).toBeNull());
    // The list was asked for, and nothing is shown for this pipeline.
    expect(screen.queryByText('Pipeline name')).toBeNull();
  });
});
