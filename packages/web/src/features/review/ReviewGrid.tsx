import type { ReviewRow } from '@gdb/shared/uploads/review.schemas';
import { Button } from 'antd';
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
  const classes = ['gdb-review-row'];
  if (row.removed) classes.push('gdb-review-removed');
  return (
    <div role="row" aria-rowindex={position + 2} className={classes.join(' ')} style={{ height: ROW_HEIGHT }} data-index={row.index}>
      <div role="rowheader" className={whole ? 'gdb-review-line gdb-review-bad' : 'gdb-review-line'} title={whole} style={{ width: LINE_WIDTH }}>
        {row.line}
        {whole && (
          <span id={`${id}-r${row.index}`} className="gdb-sr-only">
            {whole}
          </span>
        )}
      </div>
      {fields.map((field, c) => {
        const message = cellMessage(row, field);
        const describedBy = message ? `${id}-c${row.index}-${c}` : undefined;
        const corrected = row.corrected.includes(field);
        const cellClass = ['gdb-review-cell', message ? 'gdb-review-bad' : '', corrected ? 'gdb-review-corrected' : ''].join(' ');
        return (
          <div key={field} role="gridcell" className={cellClass} style={{ width: CELL_WIDTH }} title={message}>
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
          </div>
        );
      })}
      <div role="gridcell" className="gdb-review-action" style={{ width: ACTION_WIDTH }}>
        <Button size="small" type="link" onClick={() => onRemove(row.index, !row.removed)} aria-label={`${row.removed ? 'Keep' : 'Remove'} row ${row.line}`}>
          {row.removed ? 'Keep' : 'Remove'}
        </Button>
      </div>
    </div>
  );
});

/**
 * The review grid: a header of the file's columns and the rows, drawn only as far as they are in
 * view (tens of thousands scroll as smoothly as a few); each bad cell marked, its message in its
 * tooltip and read by screen readers with the cell (aria-describedby).
 */
export function ReviewGrid({ fields, rows, height, onEdit, onRemove }: ReviewGridProps) {
  const id = useId();
  const [scrollTop, setScrollTop] = useState(0);
  const { first, last } = windowOf(rows.length, scrollTop, height, ROW_HEIGHT, OVERSCAN);
  const width = LINE_WIDTH + fields.length * CELL_WIDTH + ACTION_WIDTH;
  return (
    <div
      role="grid"
      aria-label="Rows to review"
      aria-rowcount={rows.length + 1}
      aria-colcount={fields.length + 2}
      className="gdb-review-grid"
      style={{ height: height + ROW_HEIGHT }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div role="row" aria-rowindex={1} className="gdb-review-head" style={{ width, height: ROW_HEIGHT }}>
        <div role="columnheader" style={{ width: LINE_WIDTH }}>
          Row
        </div>
        {fields.map((f) => (
          <div role="columnheader" key={f} style={{ width: CELL_WIDTH }} title={f}>
            {f}
          </div>
        ))}
        <div role="columnheader" style={{ width: ACTION_WIDTH }}>
          <span className="gdb-sr-only">Actions</span>
        </div>
      </div>
      <div className="gdb-review-space" style={{ height: rows.length * ROW_HEIGHT, width }}>
        <div style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
          {rows.slice(first, last).map((row, i) => (
            <GridRow key={row.index} row={row} fields={fields} position={first + i} id={id} onEdit={onEdit} onRemove={onRemove} />
          ))}
        </div>
      </div>
    </div>
  );
}
