import { useRef } from 'react';

/** True for an element inside a dialog that is shown. */
function inOpenDialog(el: Element | null): boolean {
  const dialog = el?.closest('[role=dialog]');
  return !!dialog && dialog.getClientRects().length > 0;
}

/**
 * Gives the focus back to what opened a dialog once the dialog is gone: a dialog that unmounts as
 * it closes leaves the focus on <body>, and a keyboard user would start again from the top.
 */
export function useFocusReturn() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    /** Call as the dialog opens. */
    opened() {
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    /** Call as the dialog closes. */
    closed() {
      const el = opener.current;
      opener.current = null;
      // After the dialog's own unmount, which may move the focus itself; not away from a dialog
      // open by then (a question the closing one asked), whose focus lock would take it back to
      // its first button rather than the one it chose.
      if (el) setTimeout(() => el.isConnected && !inOpenDialog(document.activeElement) && el.focus());
    },
  };
}
