import type { App } from 'antd';
import type { ReactNode } from 'react';

type ModalApi = ReturnType<typeof App.useApp>['modal'];

const CONFIRMATION_TITLE = 'Confirmation';

/**
 * Props for every dialog: antd's scroll lock injects a style element without the CSP nonce (the
 * browser refuses it and reports a violation), so the page behind a dialog keeps its scroll.
 */
export const CSP_SAFE_MODAL = { scrollLock: false } as const;

/** Where drawers are drawn: a host of their own under body (antd locks the scroll, with a style element, only for body). */
function drawerHost(): HTMLElement {
  const found = document.getElementById('gdb-drawers');
  if (found) return found;
  const host = document.createElement('div');
  host.id = 'gdb-drawers';
  document.body.appendChild(host);
  return host;
}

/** Props for every drawer, for the same reason as CSP_SAFE_MODAL: its scroll lock would inject a style element. */
export const CSP_SAFE_DRAWER = { getContainer: drawerHost } as const;

/** The product's Yes/No question (title 'Confirmation'); resolves true for Yes. */
export function askConfirmation(modal: ModalApi, content: ReactNode): Promise<boolean> {
  return new Promise((resolve) => {
    modal.confirm({
      ...CSP_SAFE_MODAL,
      title: CONFIRMATION_TITLE,
      content,
      okText: 'Yes',
      cancelText: 'No',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}
