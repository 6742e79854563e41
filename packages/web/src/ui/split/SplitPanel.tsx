import { type KeyboardEvent, type PointerEvent, type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import './split.css';

/** Width of the handle, and the least each side keeps. */
const SPLIT_HANDLE_PX = 5;
const SPLIT_MIN_PX = 10;
const KEY_STEP_PX = 10;

export interface SplitPanelProps {
  first: ReactNode;
  second: ReactNode;
  /** Side by side (default) or one above the other. */
  direction?: 'horizontal' | 'vertical';
  /** Size of the first side in px; without it the panel starts at half. */
  position?: number;
  onResize?: (position: number) => void;
  /** Names the handle for screen readers. */
  label?: string;
}

export const clampSplit = (position: number, total: number) =>
  Math.max(SPLIT_MIN_PX, Math.min(position, total - SPLIT_HANDLE_PX - SPLIT_MIN_PX));

/**
 * Two panes and a 5 px handle between them, dragged with the pointer or moved with the arrow keys;
 * each side keeps at least 10 px, and the split starts at half unless a position is given.
 */
export function SplitPanel({ first, second, direction = 'horizontal', position, onResize, label = 'Resize' }: SplitPanelProps) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<number | null>(position ?? null);
  const [total, setTotal] = useState(0);
  const horizontal = direction === 'horizontal';

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setTotal(horizontal ? el.clientWidth : el.clientHeight);
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(el);
    return () => observer?.disconnect();
  }, [horizontal]);

  const current = total > 0 ? clampSplit(size ?? (total - SPLIT_HANDLE_PX) / 2, total) : null;
  const move = (next: number) => {
    const clamped = clampSplit(next, total);
    setSize(clamped);
    onResize?.(clamped);
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const el = box.current;
    if (!el) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const rect = el.getBoundingClientRect();
    const onMove = (ev: globalThis.PointerEvent) => move(horizontal ? ev.clientX - rect.left : ev.clientY - rect.top);
    const stop = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', stop);
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', stop);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (current === null) return;
    const back = horizontal ? 'ArrowLeft' : 'ArrowUp';
    const forward = horizontal ? 'ArrowRight' : 'ArrowDown';
    if (e.key === back) move(current - KEY_STEP_PX);
    else if (e.key === forward) move(current + KEY_STEP_PX);
    else return;
    e.preventDefault();
  };
  const firstStyle = current === null ? { flex: 1 } : { flex: `0 0 ${current}px` };
  return (
    <div ref={box} className={`gdb-split gdb-split--${direction}`}>
      <div className="gdb-split-pane" style={firstStyle}>
        {first}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a focusable separator that resizes the panes (the hr element cannot take focus) */}
      <div
        role="separator"
        aria-label={label}
        aria-orientation={horizontal ? 'vertical' : 'horizontal'}
        aria-valuenow={current ?? undefined}
        aria-valuemin={SPLIT_MIN_PX}
        aria-valuemax={total > 0 ? total - SPLIT_HANDLE_PX - SPLIT_MIN_PX : undefined}
        tabIndex={0}
        className="gdb-split-handle"
        style={horizontal ? { width: SPLIT_HANDLE_PX } : { height: SPLIT_HANDLE_PX }}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
      />
      <div className="gdb-split-pane" style={{ flex: 1 }}>
        {second}
      </div>
    </div>
  );
}
