import '../../../test/dom.ts';
import type { Review, ReviewRow } from '@gdb/shared/uploads/review.schemas';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, type Recorded, signedInAs } from '../../../test/fake-api.ts';
import { button } from '../../../test/queries.ts';
import { renderApp } from '../../../test/render-app.tsx';

const FIELDS = ['code', 'price'];
const ROWS: ReviewRow[] = [
  {
    index: 1,
    line: 3,
    values: ['B2', 'x'],
    problems: [{ field: 'price', message: '"x" is not a number' }],
    removed: false,
    corrected: [],
  },
  {
    index: 2,
    line: 4,
    values: [null, '3'],
    problems: [{ field: 'code', message: 'no value, and one is required' }],
    removed: false,
    corrected: [],
  },
  {
    index: 4,
    line: 6,
    values: ['E5', 'five'],
    problems: [{ field: 'price', message: '"five" is not a number' }],
    removed: false,
    corrected: [],
  },
];

/** The review the fake server answers: the rows the filters keep. */
function page(call: Recorded): Review {
  const q = new URLSearchParams(call.search);
  const field = q.get('field');
  const rows = field ? ROWS.filter((r) => r.problems.some((p) => p.field === field)) : ROWS;
  return {
    uploadId: 'u1',
    fileName: 'dealers.csv',
    fields: FIELDS,
    rowCount: 5,
    problemRows: 3,
    removedRows: 0,
    total: rows.length,
    fieldProblems: [
      { field: 'code', count: 1 },
      { field: 'price', count: 2 },
    ],
    messageKinds: [{ kind: 'price: … is not a number', count: 2 }],
    rows,
  };
}

/** The corrections answer: each row sent, as the server would check it (a number is a fixed price). */
function corrected(call: Recorded) {
  const body = call.body as { changes: { rowIndex: number; field: string; value: string }[]; removals: number[] };
  const rows = ROWS.filter((r) => body.changes.some((c) => c.rowIndex === r.index) || body.removals.includes(r.index)).map(
    (r) => {
      const values = [...r.values];
      for (const c of body.changes.filter((c) => c.rowIndex === r.index)) values[FIELDS.indexOf(c.field)] = c.value;
      const problems = Number.isNaN(Number(values[1])) ? r.problems : r.problems.filter((p) => p.field !== 'price');
      return { ...r, values, problems, removed: body.removals.includes(r.index), corrected: body.changes.map((c) => c.field) };
    },
  );
  return { rows, problemRows: 2, removedRows: body.removals.length };
}

async function open() {
  const server = signedInAs(['user'], {
    'GET /uploads/u1/review': (call) => ok(page(call)),
    'POST /uploads/u1/corrections': (call) => ok(corrected(call)),
    'POST /uploads/u1/submit': () => ok({ uploadId: 'u2' }),
  });
  renderApp('/import/review?upload=u1');
  await screen.findByText('Review of dealers.csv');
  await screen.findByLabelText('price, row 3');
  return server;
}

const cell = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const corrections = (server: { calls: Recorded[] }) =>
  server.calls.filter((c) => c.path === '/uploads/u1/corrections').map((c) => c.body);

describe('review grid', () => {
  it('marks each bad cell with its message, read with the cell by screen readers', async () => {
    await open();
    const price = cell('price, row 3');
    expect(price.getAttribute('aria-invalid')).toBe('true');
    const said = document.getElementById(price.getAttribute('aria-describedby') ?? '');
    expect(said?.textContent).toBe('"x" is not a number');
    expect(price.closest('td')?.getAttribute('title')).toBe('"x" is not a number');
    expect(cell('code, row 3').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText('3 rows have a problem, 0 removed, of 5 in the file.')).toBeDefined();
  });

  it('filters the rows by column', async () => {
    const server = await open();
    fireEvent.mouseDown(screen.getByLabelText('Filter by column'));
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find(
        (o) => o.textContent === 'code (1)',
      );
      expect(found).toBeDefined();
      return found as HTMLElement;
    });
    fireEvent.click(option);
    await waitFor(() => {
      expect(screen.queryByLabelText('price, row 3')).toBeNull();
      expect(screen.queryByLabelText('code, row 4')).not.toBeNull();
    });
    expect(server.calls.some((c) => c.path === '/uploads/u1/review' && c.search.includes('field=code'))).toBe(true);
  });

  it('sends a cell edited in place, a moment later, and shows the row checked again', async () => {
    const server = await open();
    fireEvent.change(cell('price, row 3'), { target: { value: '2' } });
    fireEvent.change(cell('price, row 3'), { target: { value: '2.5' } });
    expect(cell('price, row 3').value).toBe('2.5');
    await waitFor(() => expect(cell('price, row 3').getAttribute('aria-invalid')).toBeNull());
    // The two keystrokes went in one call, with the last value.
    expect(corrections(server)).toEqual([
      { changes: [{ rowIndex: 1, field: 'price', value: '2.5' }], removals: [], restores: [] },
    ]);
    await screen.findByText('2 rows have a problem, 0 removed, of 5 in the file.');
  });

  it('finds and replaces within a column, and removes a row', async () => {
    const server = await open();
    fireEvent.mouseDown(screen.getByLabelText('Column to replace in'));
    const option = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === 'price');
      expect(found).toBeDefined();
      return found as HTMLElement;
    });
    fireEvent.click(option);
    fireEvent.change(screen.getByLabelText('Find'), { target: { value: 'five' } });
    fireEvent.change(screen.getByLabelText('Replace with'), { target: { value: '5' } });
    fireEvent.click(button('Replace'));
    await screen.findByText('1 cell replaced.');
    expect(cell('price, row 6').value).toBe('5');
    fireEvent.click(screen.getByLabelText('Remove row 4'));
    const sent = () => corrections(server) as { changes: unknown[]; removals: number[] }[];
    await waitFor(() => expect(sent().flatMap((b) => b.removals)).toEqual([2]));
    expect(sent().flatMap((b) => b.changes)).toEqual([{ rowIndex: 4, field: 'price', value: '5' }]);
    await waitFor(() => expect(screen.getByLabelText('Keep row 4')).toBeDefined());
    fireEvent.click(button('Submit corrected file'));
    await screen.findByText('The corrected file was submitted as a new upload of the same data source; the original is kept.');
    expect(server.count('POST /uploads/u1/submit')).toBe(1);
  });
});
