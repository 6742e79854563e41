import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { pipeline, ref, uploadView } from '../../../test/fixtures.ts';
import { button } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';

const PID = '00000000-0000-4000-8000-000000000001';
const PIPELINES = {
  staticTypes: { brands: [], locales: [], datakinds: [], productLines: [] },
  pipelines: [
    pipeline(PID, 'Prices', {
      version: 1,
      vLocked: false,
      brand: ref('b', 'B'),
      productLine: ref('pl', 'PL'),
      dataSinks: [{ name: 'out', format: 'CSV', target: null }],
    }),
  ],
};
const file = (id: string, from: string, dataSubKind: string, name: string | null, status = 'valid') =>
  uploadView(id, PID, {
    from,
    dataSubKind,
    status,
    createdAt: new Date(2026, 10, 22, 9, 0, 0).toISOString(),
    originalFilename: name,
  });

async function open(extra: Record<string, Handler> = {}) {
  const server = signedInAs(['user'], {
    'GET /users/pipelines': () => ok(PIPELINES),
    'GET /uploads/last-all': () =>
      ok([
        { dataSubKind: 'main', data: [file('u1', 'source', 'main', 'rows.csv'), file('u0', 'source', 'main', null, 'invalid')] },
      ]),
    'GET /uploads/outputs': () => ok([file('o1', 'destination', 'out', 'Prices-out.csv')]),
    ...extra,
  });
  const app = renderApp('/export/index');
  await app.opened('/export/index');
  await screen.findByText('Prices');
  return server;
}

const table = (title: string) => document.querySelector(`.gdb-export-files[data-title="${title}"]`) as HTMLElement;
const rowsOf = (title: string) =>
  [...table(title).querySelectorAll('tbody tr.ant-table-row')].map((tr) =>
    [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent),
  );

describe('Export', () => {
  it('lists the input files and the latest output files of the chosen pipeline', async () => {
    const server = await open();
    fireEvent.click(screen.getByText('Prices'));
    await screen.findByText('Prices-out.csv');
    expect(rowsOf('Input files')).toEqual([
      ['main', '', '2026-11-22 09:00:00', 'rows.csv'],
      ['main', '', '2026-11-22 09:00:00', '[Unknown]'],
    ]);
    expect(rowsOf('Output files')).toEqual([['out', '', '2026-11-22 09:00:00', 'Prices-out.csv']]);
    expect(table('Input files').querySelector('[aria-label=valid]')).not.toBeNull();
    expect(table('Input files').querySelector('[aria-label=invalid]')).not.toBeNull();
    expect(server.calls.find((c) => c.path === '/uploads/outputs')?.search).toBe(`?pipelineId=${PID}`);
    // The tables keep to their card: a fixed layout, and long file names cut with a tooltip.
    expect(table('Output files').querySelector('table')?.style.tableLayout).toBe('fixed');
    expect(screen.getByText('Prices-out.csv').classList.contains('ant-typography-ellipsis')).toBe(true);
  });

  it('exports the selected files; Export is disabled while nothing is selected', async () => {
    const created = vi.fn(() => 'blob:x');
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => {} }));
    const server = await open({
      'POST /uploads/export': () =>
        new Response('a,b\n', {
          headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="export.zip"' },
        }),
    });
    fireEvent.click(screen.getByText('Prices'));
    await screen.findByText('Prices-out.csv');
    expect(button('Export').disabled).toBe(true);
    const boxes = (title: string) => table(title).querySelectorAll('tbody input[type=checkbox]');
    const input = boxes('Input files')[0];
    const output = boxes('Output files')[0];
    if (!input || !output) throw new Error('no checkbox');
    fireEvent.click(input);
    fireEvent.click(output);
    await waitFor(() => expect(button('Export').disabled).toBe(false));
    fireEvent.click(button('Export'));
    await waitFor(() => expect(server.count('POST /uploads/export')).toBe(1));
    expect(server.calls.find((c) => c.path === '/uploads/export')?.body).toEqual({ uploadIds: ['u1', 'o1'] });
    await waitFor(() => expect(clicked).toHaveBeenCalled());
    expect(created).toHaveBeenCalled();
    clicked.mockRestore();
  });
});
