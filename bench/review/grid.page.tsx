// The review grid with 20,000 rows with a problem, as the review page shows them once read: its
// first render, and each frame of a scroll through them.
import type { ReviewRow } from '@gdb/shared/uploads/review.schemas';
import { App as AntApp } from 'antd';
import { ReviewGrid } from '../../packages/web/src/features/review/ReviewGrid.tsx';
import '../../packages/web/src/features/review/review.css';
import { exposeBench, mount, nextPaint, timeUntilPaint, unmount } from '../browser/page-kit.ts';

const FIELDS = ['dealerCode', 'name', 'city', 'postalCode', 'email', 'vehicles', 'openedOn'];
const COUNT = 20_000;
const HEIGHT = 480;

const rows: ReviewRow[] = Array.from({ length: COUNT }, (_, i) => ({
  index: i,
  line: i + 2,
  values: [
    `FR${String(i).padStart(5, '0')}`,
    `Dealer ${i}`,
    'Lyon',
    '69002',
    `d${i}@example.test`,
    i % 3 === 0 ? 'many' : '4',
    '2020-01-01',
  ],
  problems:
    i % 3 === 0
      ? [{ field: 'vehicles', message: '"many" is not a whole number' }]
      : [
          {
            field: 'dealerCode',
            message: `"FR${String(i).padStart(5, '0')}" does not have the expected form (pattern ^[A-Z]{2}[0-9]{3}$)`,
          },
        ],
  removed: false,
  corrected: [],
}));

const noop = () => {};

function Page() {
  return (
    <AntApp>
      <div style={{ width: 1200 }}>
        <ReviewGrid fields={FIELDS} rows={rows} height={HEIGHT} onEdit={noop} onRemove={noop} />
      </div>
    </AntApp>
  );
}

const grid = () => document.querySelector<HTMLElement>('.gdb-review-grid');

exposeBench({
  /** The first render of the grid with its 20,000 rows, until painted. */
  render: async () => {
    unmount();
    await nextPaint();
    const ms = await timeUntilPaint(() => mount(<Page />));
    if (!document.querySelector('[aria-invalid=true]')) throw new Error('The grid marked no bad cell');
    return ms;
  },
  /** A frame with nothing to do, until painted: the floor of the scroll's figure on this machine. */
  idle: () => timeUntilPaint(() => {}),
  /** One frame of a scroll: the grid moved by `px` from where it is, until painted. */
  scroll: async (px: number) => {
    const box = grid();
    if (!box) throw new Error('No grid');
    return timeUntilPaint(() => {
      box.scrollTop = (box.scrollTop + px) % (COUNT * 36);
      box.dispatchEvent(new Event('scroll'));
    });
  },
});
