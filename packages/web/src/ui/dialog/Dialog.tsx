import { Drawer as AntDrawer, Modal as AntModal, type DrawerProps, type ModalProps } from 'antd';

/**
 * The app's dialogs and drawers, the only place antd's Modal and Drawer are drawn (Biome refuses
 * them elsewhere): antd's scroll lock injects a style element without the CSP nonce, which the
 * browser refuses (docs/decisions.md, "Content security policy"), so a dialog takes no scroll lock
 * and a drawer is drawn in a host of its own under body, where antd locks nothing.
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

/** antd's Modal without its scroll lock. */
export function Dialog(props: Omit<ModalProps, 'scrollLock'>) {
  return <AntModal {...props} {...CSP_SAFE_MODAL} />;
}

/** antd's Drawer, drawn in the drawers' own host. */
export function Drawer(props: Omit<DrawerProps, 'getContainer'>) {
  return <AntDrawer {...props} getContainer={drawerHost} />;
}
