import { useEffect } from 'react';

/** What a person types in: the fields a dialog opens on. */
const FIELD = 'input:not([type=hidden]):not([type=file]):not(:disabled):not([readonly]), textarea:not(:disabled):not([readonly])';

/**
 * antd's dialog puts the focus on its first focusable element, the Close button, once it opens
 * (its focus lock runs after the field's own autofocus, which finds the dialog not yet in the
 * page): a dialog with a field opens on that field instead. Tabbing within the dialog to Close
 * is left alone, as the focus then comes from inside.
 */
export function openOnFirstField(e: FocusEvent): void {
  const target = e.target;
  if (!(target instanceof HTMLElement) || !target.matches('.ant-modal-close')) return;
  const dialog = target.closest('.ant-modal');
  const from = e.relatedTarget;
  if (!dialog || (from instanceof Node && dialog.contains(from))) return;
  const field = [...dialog.querySelectorAll<HTMLElement>(`.ant-modal-body :is(${FIELD})`)].find(
    (el) => el.getClientRects().length > 0,
  );
  field?.focus();
}

/** Makes every dialog of the app open on its first field (see openOnFirstField). */
export function useDialogsOpenOnFirstField(): void {
  useEffect(() => {
    document.addEventListener('focusin', openOnFirstField);
    return () => document.removeEventListener('focusin', openOnFirstField);
  }, []);
}
