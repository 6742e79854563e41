import '../../../test/dom.ts';
import type { DataSource } from '@gdb/shared/pipelines/pipeline.schemas';
import { matchFieldsOf } from '@gdb/shared/uploads/column-matcher';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, fakeApi, ok, signIn } from '../../../test/fake-api.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { MAPPING_TEXTS } from './ColumnMappingDialog.tsx';
import { useColumnMapping } from './useColumnMapping.tsx';

const PIPELINE = '00000000-0000-4000-8000-000000000002';
const fields = matchFieldsOf({
  type: 'object',
  required: ['dealerCode', 'city'],
  properties: { dealerCode: {}, city: { 'x-aliases': ['Ville'] }, email: {} },
});
const source = (contentType: DataSource['contentType']): DataSource => ({
  dataSubKind: 'dealers',
  connectorType: 'manual',
  dataFromMaster: false,
  contentType,
  dataModel: 'model-1',
});
const workbook = () => new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04])], 'dealers.xlsx');

/** The wizard's file choice with the column matching in between; `take` is called once the file is taken. */
function Choosing({ chosen, file, take }: { chosen: DataSource; file: File; take: () => void }) {
  const mapping = useColumnMapping(PIPELINE);
  return (
    <>
      <button type="button" onClick={() => void mapping.offer(chosen, file, take)}>
        choose
      </button>
      {mapping.dialog}
    </>
  );
}

function serve(fileHead: () => Response) {
  signIn();
  return fakeApi({
    'POST /uploads/file-head': fileHead,
    'GET /uploads/column-mappings': () => ok({ fields, mappings: [] }),
    'POST /uploads/column-mappings': () => ok({ signature: 's', columns: [], updatedAt: '2026-12-06T00:00:00.000Z' }),
  });
}

describe('column matching of a workbook', () => {
  it('asks the server for its head, fields first, and offers the dialog with its values; Confirm stores the mapping and takes the file', async () => {
    const server = serve(() => ok({ columns: ['Dealer Code', 'Ville', 'Notes'], samples: [['FR001', 'FR002'], ['Lyon'], []] }));
    const take = vi.fn();
    renderWidget(<Choosing chosen={source('excel')} file={workbook()} take={take} />);
    fireEvent.click(screen.getByText('choose'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('FR001, FR002')).toBeTruthy();

    const init = server.fetchMock.mock.calls.find(([url]) => String(url).endsWith('/uploads/file-head'))?.[1];
    const form = init?.body;
    if (!(form instanceof FormData)) throw new Error('not a form');
    expect([...form.keys()]).toEqual(['pipelineId', 'dataSubKind', 'file']);
    expect(form.get('pipelineId')).toBe(PIPELINE);
    expect(form.get('dataSubKind')).toBe('dealers');
    expect(take).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('button', { name: MAPPING_TEXTS.confirm }));
    await waitFor(() => expect(take).toHaveBeenCalledTimes(1));
    expect(server.calls.find((c) => c.path === '/uploads/column-mappings' && c.method === 'POST')?.body).toEqual({
      pipelineId: PIPELINE,
      dataSubKind: 'dealers',
      columns: [
        { column: 'Dealer Code', field: 'dealerCode' },
        { column: 'Ville', field: 'city' },
        { column: 'Notes', field: null },
      ],
    });
  });

  it("takes the workbook as it is, with the server's reason shown, when its head cannot be read", async () => {
    const reason = 'The workbook is not a readable archive (no central directory).';
    serve(() => envelope(42200, reason, null, 422));
    const take = vi.fn();
    renderWidget(<Choosing chosen={source('excel')} file={workbook()} take={take} />);
    fireEvent.click(screen.getByText('choose'));
    await waitFor(() => expect(take).toHaveBeenCalledTimes(1));
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('reads a CSV file in the browser, never asking the server for its head', async () => {
    // jsdom's Blob lacks arrayBuffer(), which browsers have: read through its FileReader instead.
    if (!('arrayBuffer' in Blob.prototype)) {
      Object.defineProperty(Blob.prototype, 'arrayBuffer', {
        configurable: true,
        value(this: Blob) {
          return new Promise<ArrayBuffer>((resolve, reject) => {
            const reader = new FileReader();
            reader.onload = () => (reader.result instanceof ArrayBuffer ? resolve(reader.result) : reject(new Error('not read')));
            reader.onerror = () => reject(reader.error);
            reader.readAsArrayBuffer(this);
          });
        },
      });
    }
    const server = serve(() => ok({ columns: [], samples: [] }));
    const take = vi.fn();
    const csv = new File(['Dealer Code;Ville\nFR001;Lyon\n'], 'dealers.csv', { type: 'text/csv' });
    renderWidget(<Choosing chosen={source('csv')} file={csv} take={take} />);
    fireEvent.click(screen.getByText('choose'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('FR001')).toBeTruthy();
    expect(server.count('POST /uploads/file-head')).toBe(0);
  });
});
