import { Empty } from 'antd';
import type { ReactNode } from 'react';
import './lists.css';

export interface PlainListProps<T> {
  items: readonly T[];
  keyOf: (item: T) => string;
  label: string;
  emptyText: string;
  children: (item: T) => ReactNode;
  /** Controls shown at the end of a row. */
  actions?: (item: T) => ReactNode;
}

/** A list to read: rows with optional controls at their end. */
export function PlainList<T>({ items, keyOf, label, emptyText, children, actions }: PlainListProps<T>) {
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  return (
    <ul className="gdb-plain-list" aria-label={label}>
      {items.map((item) => (
        <li key={keyOf(item)} className="gdb-plain-list-item">
          <div className="gdb-plain-list-content">{children(item)}</div>
          {actions && <div className="gdb-plain-list-actions">{actions(item)}</div>}
        </li>
      ))}
    </ul>
  );
}
