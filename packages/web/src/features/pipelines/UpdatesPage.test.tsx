import '../../../test/dom.ts';
import type { MassComputeEntry, PipelineUpdateReport } from '@gdb/shared/pipelines/pipeline-versions.schemas';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { button } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { entry, vid } from '../../../test/versions-fixtures.ts';

const doc = (n: number, name: string, version: number, vLocked: boolean) => ({
  _id: vid(n),
  kind: 'pipeline' as const,
  familyId: vid(n + 100),
  name,
  version,
  vLocked,
});

/** The report of pipeline `n`: its component `orders` v1 in use, v2 newer. */
function reportOf(n: number, name: string, isMaster: boolean): PipelineUpdateReport {
  const components = [entry('component', vid(50), 'orders', 1, { id: vid(51), version: 2, vLocked: true })];
  return {
    _id: vid(n),
    doc: doc(n, name, 1, true),
    needUpdate: true,
    data: { schemas: [], components, sdk: [], pipelines: [], needUpdate: true },
    updateJobs: true,
    updateCountries: false,
    repeatJobs: [],
    scheduledJobs: [],
    isMaster,
  };
}

const listed = (n: number, name: string, isMaster: boolean, vLocked: boolean, withReport: boolean): MassComputeEntry => ({
  doc: doc(n, name, isMaster ? 3 : 2, vLocked),
  isMaster,
  masterPipeline: isMaster ? null : vid(1),
  report: withReport ? reportOf(n, name, isMaster) : null,
});

const UPDATE_LIST = {
  pipelines: { masters: [listed(1, 'cars', true, true, true)], country: [listed(2, 'cars FR', false, true, true)] },
  errors: [],
};
const LOCK_LIST = {
  pipelines: { masters: [listed(1, 'cars', true, false, false)], country: [listed(3, 'vans DE', false, false, false)] },
  errors: [],
};

const kindOf = (search: string) => new URLSearchParams(search).get('kind');

async function open(routes: Record<string, Handler> = {}) {
  const server = signedInAs(['manager'], {
    'GET /pipelines/version/mass-compute': (call) => ok(kindOf(call.search) === 'lock' ? LOCK_LIST : UPDATE_LIST),
    ...routes,
  });
  const app = renderApp('/manage/update-lock-pipeline');
  await screen.findByRole('tab', { name: 'Update version' });
  return { server, app };
}

const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

afterEach(() => vi.useRealTimers());

describe('Updates page', () => {
  it('lists masters and countries apart with version numbers and lock icons, and shows the chosen report', async () => {
    await open();
    const masters = await screen.findByRole('region', { name: 'Master pipelines' });
    const countries = screen.getByRole('region', { name: 'Country pipelines' });
    expect(within(masters).getByText('cars')).toBeTruthy();
    expect(within(masters).getByText('v3')).toBeTruthy();
    expect(within(masters).getByLabelText('locked')).toBeTruthy();
    expect(within(countries).getByText('cars FR')).toBeTruthy();
    expect(within(countries).getByText('v2')).toBeTruthy();
    fireEvent.click(within(countries).getByText('cars FR'));
    const report = screen.getByRole('region', { name: 'Update report' });
    expect(within(report).getByText('orders')).toBeTruthy();
    expect(within(report).getByText('(v.2 - Prod)')).toBeTruthy();
  });

  it('checks every row with check-all, counts them, and sends one payload per pipeline, masters first', async () => {
    const { server } = await open({
      'POST /pipelines/version/mass-update': () =>
        ok({
          success: [
            { name: 'cars', old_version: 3, new_version: 4, oldId: vid(1), newId: vid(11) },
            { name: 'cars FR', old_version: 2, new_version: 3, oldId: vid(2), newId: vid(12) },
          ],
          jobs: [],
          errors: [],
        }),
    });
    await screen.findByText('cars FR');
    expect((button('Start update') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(box('Check all'));
    expect(box('cars v3').checked).toBe(true);
    expect(box('cars FR v2').checked).toBe(true);
    expect(screen.getByText('2 checked of 2 (1 masters, 1 countries)')).toBeTruthy();
    fireEvent.click(box('cars FR v2'));
    expect(screen.getByText('1 checked of 2 (1 masters, 1 countries)')).toBeTruthy();
    fireEvent.click(box('cars FR v2'));
    fireEvent.click(button('Start update'));
    await screen.findByText('cars : Version 3 updated to version 4');
    await screen.findByText('cars FR : Version 2 updated to version 3');
    const body = server.calls.find((c) => c.path === '/pipelines/version/mass-update')?.body as Record<string, unknown>[];
    expect(body.map((p) => p.id)).toEqual([vid(1), vid(2)]);
    expect(body[0]).toMatchObject({ componentsToUpdate: [vid(50)], updateCountries: false, updateJobs: true });
    await waitFor(() => expect(server.count('GET /pipelines/version/mass-compute')).toBeGreaterThan(1));
  });

  it("shows each result as its own toast 100 ms apart, errors as 'name, version v : error'", async () => {
    await open({
      'POST /pipelines/version/mass-lock': () =>
        ok({
          success: [{ name: 'cars', version: 3 }],
          errors: [{ name: 'vans DE', version: 2, error: 'Its master pipeline is not locked' }],
        }),
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Lock version' }));
    await screen.findByText('vans DE');
    fireEvent.click(box('Toggle all'));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(button('Start lock'));
    await screen.findByText('Version 3 locked');
    expect(screen.queryByText('vans DE, version 2 : Its master pipeline is not locked')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(100));
    await screen.findByText('vans DE, version 2 : Its master pipeline is not locked');
  });

  it('sends the checked ids to mass-lock and a failed call says why', async () => {
    const { server } = await open({
      'POST /pipelines/version/mass-lock': () => envelope(40300, 'Forbidden', null, 403),
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Lock version' }));
    await screen.findByText('vans DE');
    fireEvent.click(box('cars v3'));
    fireEvent.click(button('Start lock'));
    await screen.findByText('Forbidden');
    expect(server.calls.find((c) => c.path === '/pipelines/version/mass-lock')?.body).toEqual({ ids: [vid(1)] });
  });

  it('shows the progress while a long update runs, in batches of ten', async () => {
    const masters = Array.from({ length: 15 }, (_, i) => listed(200 + i, `m${i}`, true, true, true));
    let release: () => void = () => undefined;
    const { server } = await open({
      'GET /pipelines/version/mass-compute': () => ok({ pipelines: { masters, country: [] }, errors: [] }),
      'POST /pipelines/version/mass-update': async (call) => {
        if ((call.body as unknown[]).length === 5) await new Promise<void>((r) => (release = r));
        return ok({ success: [], jobs: [], errors: [] });
      },
    });
    await screen.findByText('m14');
    fireEvent.click(box('Check all'));
    fireEvent.click(button('Start update'));
    await screen.findByText('Updating 10 / 15');
    release();
    await waitFor(() => expect(screen.queryByText('Updating 10 / 15')).toBeNull());
    const sizes = server.calls
      .filter((c) => c.path === '/pipelines/version/mass-update')
      .map((c) => (c.body as unknown[]).length);
    expect(sizes).toEqual([10, 5]);
  });
});
