import { useRef } from 'react';

/** When the focus is given back a second time, if it has dropped to the page. */
const FOCUS_AGAIN_MS = 400;

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
      if (!el) return;
      const give = () => el.isConnected && el.focus();
      // After the dialog's own unmount, which may move the focus itself; and once more if what a
      // save set off (the list read again, a toast) dropped it to the page meanwhile.
      setTimeout(give);
      setTimeout(() => document.activeElement === document.body && give(), FOCUS_AGAIN_MS);
    },
  };
}
