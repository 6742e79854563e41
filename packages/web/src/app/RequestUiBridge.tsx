import { App } from 'antd';
import { useEffect } from 'react';
import { LOGOUT_TEXT, LOGOUT_TITLE, setRequestUi } from '../ground/request/request-ui.ts';
import { useDialogCalls } from '../ui/dialog/calls.ts';

const reloadPage = () => window.location.reload();

/** Gives the request layer antd's message and modal, inside the app's theme and CSP nonce. */
export function RequestUiBridge({ reload = reloadPage }: { reload?: () => void }) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  useEffect(
    () =>
      setRequestUi({
        confirmLogout: () =>
          new Promise<boolean>((resolve) => {
            modal.confirm({
              title: LOGOUT_TITLE,
              content: LOGOUT_TEXT,
              okText: 'Re-Login',
              cancelText: 'Cancel',
              onOk: () => resolve(true),
              onCancel: () => resolve(false),
            });
          }),
        error: (text, seconds) => {
          void message.error(text, seconds);
        },
        reload,
      }),
    [message, modal, reload],
  );
  return null;
}
