import { useRef } from 'react';

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
      // After the dialog's own unmount, which may move the focus itself.
      if (el) setTimeout(() => el.isConnected && el.focus());
    },
  };
}
