import { App, Modal, type ModalFuncProps } from 'antd';
import { type ReactElement, type ReactNode, useMemo } from 'react';
import { CSP_SAFE_MODAL } from './Dialog.tsx';

/** antd's confirm, info, success, warning and error calls. */
export type DialogCalls = ReturnType<typeof Modal.useModal>[0];

/** The same calls, each opening without the scroll lock (see Dialog.tsx). */
function cspSafe(calls: DialogCalls): DialogCalls {
  const safe =
    (call: DialogCalls['confirm']): DialogCalls['confirm'] =>
    (config: ModalFuncProps) =>
      call({ ...config, ...CSP_SAFE_MODAL });
  return {
    confirm: safe(calls.confirm),
    info: safe(calls.info),
    success: safe(calls.success),
    warning: safe(calls.warning),
    error: safe(calls.error),
  };
}

/** The app's dialog calls (App's holder, inside the theme and CSP nonce). */
export function useDialogCalls(): DialogCalls {
  const { modal } = App.useApp();
  return useMemo(() => cspSafe(modal), [modal]);
}

/** Dialog calls drawn by a holder of the caller's own (for a part that may sit outside App). */
export function useLocalDialogCalls(): readonly [DialogCalls, ReactElement] {
  const [modal, holder] = Modal.useModal();
  const calls = useMemo(() => cspSafe(modal), [modal]);
  return [calls, holder] as const;
}

const CONFIRMATION_TITLE = 'Confirmation';

/** The product's Yes/No question (title 'Confirmation'); resolves true for Yes. */
export function askConfirmation(calls: DialogCalls, content: ReactNode): Promise<boolean> {
  return new Promise((resolve) => {
    calls.confirm({
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
