import { Button } from 'antd';
import type { ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';

const GENERIC_DIALOG = { title: 'GlobalDB Dialog', width: '30%', ok: 'OK', cancel: 'Cancel' } as const;

export interface GenericDialogProps {
  open: boolean;
  title?: ReactNode;
  /** 30% by default. */
  width?: string | number;
  /** With validation on, the dialog has an OK button, enabled only while `allowed`. */
  validation?: boolean;
  allowed?: boolean;
  onOk?: () => void;
  onCancel: () => void;
  okText?: string;
  cancelText?: string;
  children?: ReactNode;
}

/**
 * The editors' plain dialog: titled 'GlobalDB Dialog' unless told otherwise, 30% wide, a Cancel
 * button, and an OK button only when it validates something (disabled until that passes).
 */
export function GenericDialog({
  open,
  title = GENERIC_DIALOG.title,
  width = GENERIC_DIALOG.width,
  validation = false,
  allowed = false,
  onOk,
  onCancel,
  okText = GENERIC_DIALOG.ok,
  cancelText = GENERIC_DIALOG.cancel,
  children,
}: GenericDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      width={width}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {cancelText}
        </Button>,
        ...(validation
          ? [
              <Button key="ok" type="primary" disabled={!allowed} onClick={onOk}>
                {okText}
              </Button>,
            ]
          : []),
      ]}
    >
      {children}
    </Dialog>
  );
}
