import { Empty } from 'antd';
import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react';
import './lists.css';

export interface ListBoxProps<T> {
  items: readonly T[];
  keyOf: (item: T) => string;
  selectedKey: string | null;
  onSelect: (item: T) => void;
  label: string;
  emptyText: string;
  children: (item: T, selected: boolean) => ReactNode;
  className?: string;
}

/**
 * A single-choice list for the keyboard and screen readers: one Tab stop (the selected option,
 * else the last focused, else the first), arrows, Home and End move, Enter or Space choose.
 */
export function ListBox<T>({ items, keyOf, selectedKey, onSelect, label, emptyText, children, className }: ListBoxProps<T>) {
  const refs = useRef<(HTMLDivElement | null)[]>([]);
  const [active, setActive] = useState(0);
  const selectedIndex = items.findIndex((item) => keyOf(item) === selectedKey);
  const tabStop = selectedIndex >= 0 ? selectedIndex : Math.min(active, Math.max(items.length - 1, 0));
  const focus = (i: number) => {
    const next = Math.max(0, Math.min(items.length - 1, i));
    setActive(next);
    refs.current[next]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>, i: number, item: T) => {
    const moves: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: items.length - 1 };
    const to = moves[e.key];
    if (to !== undefined) {
      e.preventDefault();
      focus(to);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onSelect(item);
    }
  };
  if (items.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />;
  return (
    <div className={className ? `gdb-listbox ${className}` : 'gdb-listbox'} role="listbox" aria-label={label}>
      {items.map((item, i) => {
        const key = keyOf(item);
        const selected = key === selectedKey;
        return (
          <div
            key={key}
            ref={(el) => {
              refs.current[i] = el;
            }}
            role="option"
            tabIndex={i === tabStop ? 0 : -1}
            aria-selected={selected}
            className={selected ? 'gdb-listbox-option gdb-listbox-selected' : 'gdb-listbox-option'}
            onClick={() => onSelect(item)}
            onKeyDown={(e) => onKeyDown(e, i, item)}
            onFocus={() => setActive(i)}
          >
            {children(item, selected)}
          </div>
        );
      })}
    </div>
  );
}
