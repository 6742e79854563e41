import '../../../test/dom.ts';
import type { UpdateReport } from '@gdb/shared/versions/versions.schemas';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { dialog, queryButton } from '../../../test/queries.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { entry, report, vid } from '../../../test/versions-fixtures.ts';
import { UpdatePreviewDialog, updateTitle } from './UpdatePreviewDialog.tsx';
import type { VersionedDoc } from './versioned-doc.ts';

const ORDERS: VersionedDoc = { _id: vid(20), name: 'orders', version: 2, vLocked: false, read_only: false };
const TITLE = 'Component orders (v.2 - Draft)';

/** orders uses customer v1 (v3, a draft, is newer), address v2 (newest) and component pricing v1 (v2 locked is newer). */
const NEEDED = report(
  ORDERS._id,
  [entry('schema', vid(31), 'customer', 1, { id: vid(33), version: 3, vLocked: false }), entry('schema', vid(42), 'address', 2)],
  [entry('component', vid(51), 'pricing', 1, { id: vid(52), version: 2, vLocked: true })],
);

function show(answer: UpdateReport, routes: Record<string, Handler> = {}, doc = ORDERS) {
  const server = signedInAs(['manager'], { 'GET /components/version/compute': () => ok(answer), ...routes });
  const onUpdated = vi.fn();
  const onClose = vi.fn();
  renderWidget(
    <UpdatePreviewDialog open kind="component" path="/components" doc={doc} onUpdated={onUpdated} onClose={onClose} />,
  );
  return { server, onUpdated, onClose };
}

const proceed = () => queryButton('Proceed to update ...');
const take = (name: string) => screen.getByLabelText(`Update ${name}`) as HTMLInputElement;

describe('update preview dialog', () => {
  it("is titled with 'Master' or 'Country' for pipelines, then the type, the name and its version", () => {
    expect(updateTitle('component', ORDERS)).toBe(TITLE);
    expect(updateTitle('pipeline', { ...ORDERS, name: 'cars', isMaster: true, vLocked: true })).toBe(
      'Master Pipeline cars (v.2 - Prod)',
    );
    expect(updateTitle('pipeline', { ...ORDERS, name: 'cars-fr', isMaster: false })).toBe(
      'Country Pipeline cars-fr (v.2 - Draft)',
    );
  });

  it('shows, 95% wide, which dependencies have a newer version and which it would take, all of them chosen', async () => {
    show(NEEDED);
    const modal = await dialog(TITLE);
    expect(modal.style.width).toBe('95%');
    await screen.findByText('customer');
    const rows = [...modal.querySelectorAll('.ant-table-tbody tr.ant-table-row')].map((r) =>
      [...r.querySelectorAll('td')].map((td) => td.textContent),
    );
    expect(rows).toEqual([
      ['Schema', 'customer', '(v.1 - Prod)', '(v.3 - Draft)', ''],
      ['Schema', 'address', '(v.2 - Prod)', '—', ''],
      ['Component', 'pricing', '(v.1 - Prod)', '(v.2 - Prod)', ''],
    ]);
    expect(modal.querySelector('.ant-table-body')?.getAttribute('style')).toContain('60vh');
    expect([take('customer').checked, take('pricing').checked]).toEqual([true, true]);
    expect(screen.queryByLabelText('Update address')).toBeNull();
    expect(proceed()?.disabled).toBe(false);
  });

  it("hides 'Proceed to update ...' when no update is needed; Cancel closes", async () => {
    const { onClose } = show(report(ORDERS._id, [entry('schema', vid(42), 'address', 2)]));
    await screen.findByText('Every dependency is on its newest version.');
    expect(proceed()).toBeUndefined();
    fireEvent.click(queryButton('Cancel') as HTMLElement);
    expect(onClose).toHaveBeenCalled();
  });

  it('blocks proceeding while nothing is chosen', async () => {
    show(NEEDED);
    await screen.findByText('customer');
    fireEvent.click(take('customer'));
    fireEvent.click(take('pricing'));
    await waitFor(() => expect(proceed()?.disabled).toBe(true));
    fireEvent.click(take('pricing'));
    await waitFor(() => expect(proceed()?.disabled).toBe(false));
  });

  it('is blocked on a read-only version', async () => {
    show(NEEDED, {}, { ...ORDERS, read_only: true });
    await screen.findByText('customer');
    expect(proceed()?.disabled).toBe(true);
  });

  it('updates the chosen dependencies, disabling itself once pressed, reports each new version and opens the last', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const success = [
      { name: 'pricing', old_version: 1, new_version: 3, newId: vid(53) },
      { name: 'orders', old_version: 2, new_version: 3, newId: vid(23) },
    ];
    const { server, onUpdated, onClose } = show(NEEDED, {
      'POST /components/version/update': async () => {
        await held;
        return ok({ success });
      },
    });
    await screen.findByText('customer');
    fireEvent.click(take('customer'));
    fireEvent.click(proceed() as HTMLElement);
    await waitFor(() => expect(proceed()?.disabled).toBe(true));
    release();
    await screen.findByText('pricing : Version 1 updated to version 3');
    await screen.findByText('orders : Version 2 updated to version 3');
    expect(server.calls.find((c) => c.path === '/components/version/update')?.body).toEqual({
      update_data: {
        id: ORDERS._id,
        updateJobs: false,
        schemasToUpdate: [],
        componentsToUpdate: [vid(51)],
        sdkToUpdate: [],
        pipelinesToUpdate: [],
      },
    });
    expect(onClose).toHaveBeenCalled();
    expect(onUpdated).toHaveBeenCalledWith(vid(23));
  });

  it('shows the refusal and lets the person try again', async () => {
    const { onUpdated } = show(NEEDED, {
      'POST /components/version/update': () => envelope(40300, 'This component is read-only.', null, 403),
    });
    await screen.findByText('customer');
    fireEvent.click(proceed() as HTMLElement);
    await screen.findByText('This component is read-only.');
    await waitFor(() => expect(proceed()?.disabled).toBe(false));
    expect(onUpdated).not.toHaveBeenCalled();
  });

  it('offers to move the jobs when jobs point at the version', async () => {
    const { server } = show(
      { ...NEEDED, repeatJobs: [{ _id: 'j1' }] },
      { 'POST /components/version/update': () => ok({ success: [] }) },
    );
    fireEvent.click(await screen.findByLabelText('Move the jobs to the new version'));
    fireEvent.click(proceed() as HTMLElement);
    await waitFor(() => expect(server.count('POST /components/version/update')).toBe(1));
    expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ update_data: { updateJobs: true } });
  });
});

describe('update preview dialog of a master pipeline', () => {
  const CARS: VersionedDoc = { _id: vid(60), name: 'cars', version: 1, vLocked: true, read_only: false, isMaster: true };
  const MASTER_REPORT: UpdateReport = {
    ...report(CARS._id, [entry('schema', vid(31), 'customer', 1, { id: vid(33), version: 2, vLocked: true })]),
    updateCountries: true,
    updateJobs: true,
    repeatJobs: [{ _id: 'j1' }],
  };

  function showMaster(update: Handler) {
    const server = signedInAs(['manager'], {
      'GET /pipelines/version/compute': () => ok(MASTER_REPORT),
      'POST /pipelines/version/update': update,
    });
    renderWidget(<UpdatePreviewDialog open kind="pipeline" path="/pipelines" doc={CARS} onUpdated={vi.fn()} onClose={vi.fn()} />);
    return server;
  }

  it('offers both options, at first as the report says, and sends what the person chose', async () => {
    const server = showMaster(() => ok({ success: [], jobs: [], errors: [] }));
    await dialog('Master Pipeline cars (v.1 - Prod)');
    const countries = (await screen.findByLabelText('Update the country pipelines too')) as HTMLInputElement;
    const jobs = screen.getByLabelText('Move the jobs to the new version') as HTMLInputElement;
    expect([countries.checked, jobs.checked]).toEqual([true, true]);
    fireEvent.click(countries);
    fireEvent.click(proceed() as HTMLElement);
    await waitFor(() => expect(server.count('POST /pipelines/version/update')).toBe(1));
    expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      update_data: { id: CARS._id, updateCountries: false, updateJobs: true, schemasToUpdate: [vid(31)] },
    });
  });

  it("shows each country left as it was as 'name, version v : error', after the versions made", async () => {
    showMaster(() =>
      ok({
        success: [{ name: 'cars', old_version: 1, new_version: 2, newId: vid(61) }],
        jobs: [],
        errors: [{ name: 'cars-es', version: 1, error: 'This pipeline is read-only.' }],
      }),
    );
    await screen.findByText('customer');
    fireEvent.click(proceed() as HTMLElement);
    await screen.findByText('cars : Version 1 updated to version 2');
    await screen.findByText('cars-es, version 1 : This pipeline is read-only.');
  });
});
