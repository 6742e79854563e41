import type { ReviewRow } from '@gdb/shared/uploads/review.schemas';
import { memo, useId, useState } from 'react';
import { windowOf } from '../../ui/tree/tree-rows.ts';
import { cellMessage, rowMessage } from './review-edits.ts';

/** Height of a grid row, in pixels: the grid draws only the rows in view. */
const ROW_HEIGHT = 36;
const OVERSCAN = 8;
const LINE_WIDTH = 72;
const CELL_WIDTH = 180;
const ACTION_WIDTH = 96;

interface ReviewGridProps {
  fields: readonly string[];
  rows: readonly ReviewRow[];
  height: number;
  onEdit: (rowIndex: number, field: string, value: string) => void;
  onRemove: (rowIndex: number, removed: boolean) => void;
}

interface RowProps {
  row: ReviewRow;
  fields: readonly string[];
  position: number;
  id: string;
  onEdit: ReviewGridProps['onEdit'];
  onRemove: ReviewGridProps['onRemove'];
}

/** One row: its number (marked when the whole row has a problem), its cells edited in place, and Remove or Keep. */
const GridRow = memo(function GridRow({ row, fields, position, id, onEdit, onRemove }: RowProps) {
  const whole = rowMessage(row);
  return (
    <tr aria-rowindex={position + 2} className={row.removed ? 'gdb-review-removed' : undefined} data-index={row.index}>
      <th scope="row" className={whole ? 'gdb-review-line gdb-review-bad' : 'gdb-review-line'} title={whole}>
        {row.line}
        {whole && <span className="gdb-sr-only">{whole}</span>}
      </th>
      {fields.map((field, c) => {
        const message = cellMessage(row, field);
        const describedBy = message ? `${id}-c${row.index}-${c}` : undefined;
        const corrected = row.corrected.includes(field);
        const cellClass = [message ? 'gdb-review-bad' : '', corrected ? 'gdb-review-corrected' : ''].join(' ').trim();
        return (
          <td key={field} className={cellClass || undefined} title={message}>
            <input
              className="gdb-review-input"
              aria-label={`${field}, row ${row.line}`}
              aria-invalid={message ? true : undefined}
              aria-describedby={describedBy}
              value={row.values[c] ?? ''}
              disabled={row.removed}
              onChange={(e) => onEdit(row.index, field, e.target.value)}
            />
            {message && (
              <span id={describedBy} className="gdb-sr-only">
                {message}
              </span>
            )}
          </td>
        );
      })}
      <td>
        <button
          type="button"
          className="gdb-review-remove"
          onClick={() => onRemove(row.index, !row.removed)}
          aria-label={`${row.removed ? 'Keep' : 'Remove'} row ${row.line}`}
        >
          {row.removed ? 'Keep' : 'Remove'}
        </button>
      </td>
    </tr>
  );
});

/**
 * The review grid: a table of the file's columns whose rows are drawn only as far as they are in
 * view (tens of thousands scroll as smoothly as a few, the rows above and below held by two empty
 * rows of their height); each bad cell marked, its message in its tooltip and read by screen
 * readers with the cell (aria-describedby).
 */
export function ReviewGrid({ fields, rows, height, onEdit, onRemove }: ReviewGridProps) {
  const id = useId();
  const [scrollTop, setScrollTop] = useState(0);
  const { first, last } = windowOf(rows.length, scrollTop, height, ROW_HEIGHT, OVERSCAN);
  const width = LINE_WIDTH + fields.length * CELL_WIDTH + ACTION_WIDTH;
  return (
    <div
      className="gdb-review-grid"
      style={{ height: height + ROW_HEIGHT }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <table className="gdb-review-table" aria-label="Rows to review" aria-rowcount={rows.length + 1} style={{ width }}>
        <colgroup>
          <col style={{ width: LINE_WIDTH }} />
          {fields.map((f) => (
            <col key={f} style={{ width: CELL_WIDTH }} />
          ))}
          <col style={{ width: ACTION_WIDTH }} />
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col">Row</th>
            {fields.map((f) => (
              <th scope="col" key={f} title={f}>
                {f}
              </th>
            ))}
            <th scope="col">
              <span className="gdb-sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {first > 0 && <tr className="gdb-review-spacer" style={{ height: first * ROW_HEIGHT }} />}
          {rows.slice(first, last).map((row, i) => (
            <GridRow key={row.index} row={row} fields={fields} position={first + i} id={id} onEdit={onEdit} onRemove={onRemove} />
          ))}
          {last < rows.length && <tr className="gdb-review-spacer" style={{ height: (rows.length - last) * ROW_HEIGHT }} />}
        </tbody>
      </table>
    </div>
  );
}
