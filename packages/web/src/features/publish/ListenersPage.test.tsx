import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, type Recorded, signedInAs } from '../../../test/fake-api.ts';
import { button, confirmation } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';

const listener = (id: string, name: string | null, fields: Record<string, unknown> = {}) => ({
  _id: id,
  pipelineId: `p-${id}`,
  pipelineName: name,
  pipelineVersion: name ? 1 : null,
  pipelineVLocked: name ? false : null,
  state: [
    { hostname: 'gdb-a', state: 'consuming', last_error: null },
    { hostname: 'gdb-b', state: 'reconnecting', last_error: 'ECONNREFUSED 127.0.0.1:5672' },
  ],
  isValid: name !== null,
  createDate: '2026-12-01T08:00:00.000Z',
  createUsername: 'ada.lovelace',
  ...fields,
});

const LIST = [listener('l1', 'Stock feed'), listener('l2', null, { state: [] })];

const rows = () => [...document.querySelectorAll('tr.gdb-published-row')];

async function open(routes: Record<string, (call: Recorded) => Response> = {}) {
  const server = signedInAs(['super-admin'], { 'GET /pipelines/deployed-listener': () => ok(LIST), ...routes });
  const app = renderApp('/manage/listeners');
  await app.opened('/manage/listeners');
  await screen.findByText('Stock feed (v.1 - Draft)');
  return server;
}

describe('Listeners screen', () => {
  it('lists each listener with a nested per-server table, and the one whose pipeline is gone as an error', async () => {
    await open();
    for (const title of ['Pipeline', 'Create date', 'Created by'])
      expect(screen.getAllByText(title, { selector: 'th' })).toHaveLength(1);
    const servers = screen.getByRole('region', { name: 'Servers of Stock feed (v.1 - Draft)' });
    for (const title of ['Hostname', 'State', 'Last Error']) expect(servers.textContent).toContain(title);
    expect(servers.textContent).toContain('gdb-a');
    expect(servers.textContent).toContain('consuming');
    expect(servers.textContent).toContain('ECONNREFUSED 127.0.0.1:5672');
    const gone = rows()[1];
    expect(gone?.textContent).toContain('Err: NO PIPELINE');
    expect(gone?.classList.contains('gdb-published-invalid')).toBe(true);
    fireEvent.change(screen.getByLabelText('Search listeners'), { target: { value: 'reconnecting' } });
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('un-publishes with the id in the body, and re-publishes per pipeline before reading the list again', async () => {
    const server = await open({
      'DELETE /pipelines/deployed-listener': (c) => ok({ _id: (c.body as { id: string }).id }),
      'POST /pipelines/publish-listener': () => ok(LIST[0]),
    });
    const box = rows()[0]?.querySelector('input[type=checkbox]');
    if (!box) throw new Error('no checkbox');
    fireEvent.click(box);
    await waitFor(() => expect(button('RE-publish').disabled).toBe(false));
    fireEvent.click(button('RE-publish'));
    fireEvent.click(button('Yes', await confirmation()));
    await screen.findByText('Pipeline is successfully published');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ id: 'p-l1' });
    await waitFor(() => expect(server.count('GET /pipelines/deployed-listener')).toBe(2));
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).toBeNull());
    fireEvent.click(button('UN-publish'));
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to un-publish pipeline [Stock feed (v.1 - Draft)]');
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(server.calls.find((c) => c.method === 'DELETE')?.body).toEqual({ id: 'l1' });
  });
});
