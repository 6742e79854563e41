import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, ok, type Recorded, signedInAs } from '../../../test/fake-api.ts';
import { button, confirmation } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';

const BASE = 'http://localhost:3000/gdb-runtime/v1';

const endpoint = (id: string, path: string, fields: Record<string, unknown> = {}) => ({
  _id: id,
  path,
  name: path,
  description: '',
  callsPerMinute: 600,
  pipelineId: `p-${id}`,
  pipelineName: `Pipeline ${path}`,
  pipelineVersion: 2,
  pipelineVLocked: true,
  componentId: 'c1',
  componentName: 'Price rules',
  componentVersion: 4,
  dataSubKind: 'prices',
  contentType: 'json',
  route: `${BASE}/${path}`,
  isValid: true,
  createDate: '2026-12-01T08:00:00.000Z',
  createUsername: 'ada.lovelace',
  updateDate: '2026-12-02T09:30:00.000Z',
  updateUsername: 'grace.hopper',
  ...fields,
});

const LIST = [
  endpoint('00000000-0000-4000-8000-0000000000e1', 'dealers/prices'),
  endpoint('00000000-0000-4000-8000-0000000000e2', 'gone', {
    pipelineName: null,
    pipelineVersion: null,
    pipelineVLocked: null,
    componentId: null,
    componentName: null,
    componentVersion: null,
    isValid: false,
  }),
];

const rows = () => [...document.querySelectorAll('tr.gdb-published-row')];
const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => td.textContent);

async function open(routes: Record<string, (call: Recorded) => Response> = {}) {
  const server = signedInAs(['manager'], { 'GET /pipelines/deployed-endpoint': () => ok(LIST), ...routes });
  const app = renderApp('/manage/endpoints');
  await app.opened('/manage/endpoints');
  await screen.findByText('dealers/prices');
  return server;
}

function select(index: number) {
  const box = rows()[index]?.querySelector('input[type=checkbox]');
  if (!box) throw new Error('no checkbox');
  fireEvent.click(box);
}

describe('Endpoints screen', () => {
  it('lists the endpoints with their columns, styles an invalid row as an error and searches', async () => {
    await open();
    for (const title of [
      'Path',
      'Pipeline',
      'Component',
      'Exposed route',
      'Create date',
      'Created by',
      'Update date',
      'Updated by',
    ])
      expect(screen.getByText(title, { selector: 'th' })).toBeDefined();
    const [valid, gone] = rows();
    if (!valid || !gone) throw new Error('rows missing');
    expect(cells(valid).slice(1, 5)).toEqual([
      'dealers/prices',
      'Pipeline dealers/prices (v.2 - Prod)',
      'Price rules (v.4)',
      `${BASE}/dealers/prices`,
    ]);
    expect(cells(valid)[6]).toBe('ada.lovelace');
    expect(cells(valid)[8]).toBe('grace.hopper');
    expect(cells(gone)[2]).toBe('Err: NO PIPELINE');
    expect(gone.classList.contains('gdb-published-invalid')).toBe(true);
    expect(valid.classList.contains('gdb-published-invalid')).toBe(false);
    fireEvent.change(screen.getByLabelText('Search endpoints'), { target: { value: 'PRICE RULES' } });
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('un-publishes the selected endpoints after the confirmation, removing each row once deleted', async () => {
    const server = await open({ 'DELETE /pipelines/deployed-endpoint': (c) => ok({ _id: (c.body as { id: string }).id }) });
    expect(button('UN-publish').disabled).toBe(true);
    select(0);
    select(1);
    await waitFor(() => expect(button('UN-publish').disabled).toBe(false));
    fireEvent.click(button('UN-publish'));
    const question = await confirmation();
    expect(question.textContent).toContain('Confirmation');
    expect(question.textContent).toContain(
      'Do you want to un-publish pipeline [Pipeline dealers/prices (v.2 - Prod), Err: NO PIPELINE]',
    );
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(rows()).toHaveLength(0));
    const deletes = server.calls.filter((c) => c.method === 'DELETE').map((c) => c.body);
    expect(deletes).toEqual([{ id: LIST[0]?._id }, { id: LIST[1]?._id }]);
    // Removed in place: the list was not read again.
    expect(server.count('GET /pipelines/deployed-endpoint')).toBe(1);
  });

  it('keeps the rows not deleted and shows the error when an un-publish fails', async () => {
    await open({ 'DELETE /pipelines/deployed-endpoint': () => envelope(40300, 'You may not change this pipeline.', null, 403) });
    select(0);
    await waitFor(() => expect(button('UN-publish').disabled).toBe(false));
    fireEvent.click(button('UN-publish'));
    fireEvent.click(button('Yes', await confirmation()));
    await screen.findByText('You may not change this pipeline.');
    expect(rows()).toHaveLength(2);
  });

  it('re-publishes per pipeline after the confirmation, shows the new key once and reloads the list', async () => {
    const server = await open({
      'POST /pipelines/publish-endpoint': () => ok({ ...LIST[0], apiKey: 'new-key-123' }),
    });
    select(0);
    await waitFor(() => expect(button('RE-publish').disabled).toBe(false));
    fireEvent.click(button('RE-publish'));
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to re-publish endpoints/pipeline [Pipeline dealers/prices (v.2 - Prod)]');
    expect(server.count('POST /pipelines/publish-endpoint')).toBe(0);
    fireEvent.click(button('Yes', question));
    await screen.findByText('Pipeline is successfully published');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ id: LIST[0]?.pipelineId });
    await screen.findByText('new-key-123');
    expect(screen.getByText(/it will not be shown again/)).toBeDefined();
    await waitFor(() => expect(server.count('GET /pipelines/deployed-endpoint')).toBe(2));
  });

  it('shows the error of a re-publish that fails', async () => {
    await open({
      'POST /pipelines/publish-endpoint': () => envelope(40900, 'Another pipeline is published at this path.', null, 409),
    });
    select(0);
    await waitFor(() => expect(button('RE-publish').disabled).toBe(false));
    fireEvent.click(button('RE-publish'));
    fireEvent.click(button('Yes', await confirmation()));
    await screen.findByText('Another pipeline is published at this path.');
    expect(screen.queryByText('Pipeline is successfully published')).toBeNull();
  });

  it('reads the list again on Refresh', async () => {
    const server = await open();
    fireEvent.click(button('Refresh'));
    await waitFor(() => expect(server.count('GET /pipelines/deployed-endpoint')).toBe(2));
  });
});
