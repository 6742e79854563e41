import { type RefObject, useEffect, useRef } from 'react';

/**
 * Runs `repair` on a container now and whenever its children change, for what an antd widget
 * renders without a prop to set it (names of its checkboxes, a hidden copy left focusable).
 * `repair` only sets attributes, which the observer does not watch, so it cannot loop.
 */
export function useDomRepair<T extends HTMLElement>(repair: (root: T) => void): RefObject<T | null> {
  const ref = useRef<T>(null);
  const latest = useRef(repair);
  latest.current = repair;
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    latest.current(root);
    const observer = new MutationObserver(() => latest.current(root));
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return ref;
}

const FOCUSABLE = 'input, button, select, textarea, a[href], [tabindex]';

/**
 * antd tables with a fixed header or a horizontal scroll render a measure row under aria-hidden
 * that copies the column titles, the select-all checkbox included: it leaves the tab order.
 */
export function hideMeasureRows(root: HTMLElement): void {
  for (const row of root.querySelectorAll('.ant-table-measure-row')) {
    row.setAttribute('inert', '');
    for (const el of row.querySelectorAll<HTMLElement>(FOCUSABLE)) if (el.tabIndex !== -1) el.tabIndex = -1;
  }
}

/**
 * A table wider than its card scrolls in its own box: with no control inside, the keyboard could
 * not scroll it, so the box takes the focus itself.
 */
export function focusableScrollBoxes(root: HTMLElement): void {
  for (const box of root.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')) {
    const scrolls = box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight;
    const reachable = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].some(
      (el) => el.tabIndex >= 0 && !el.hasAttribute('disabled') && !el.closest('[inert]'),
    );
    if (scrolls && box.tabIndex < 0 && !reachable) {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', 'Table, scrolls');
    }
  }
}
