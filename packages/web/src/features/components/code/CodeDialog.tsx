import { Button } from 'antd';
import { useState } from 'react';
import { LazyCodeEditor } from '../../../ui/code/LazyCodeEditor.tsx';
import { askConfirmation, useDialogCalls } from '../../../ui/dialog/calls.ts';
import { Dialog } from '../../../ui/dialog/Dialog.tsx';
import { CODE_TEXTS } from './code-texts.ts';
import { type PortModel, PortModels } from './PortModels.tsx';

export interface CodeDialogProps {
  title: string;
  code: string;
  readOnly: boolean;
  inputs: readonly PortModel[];
  outputs: readonly PortModel[];
  /** 'Save' for a component's code, 'Ok' for a link's. */
  confirmText: string;
  onConfirm: (code: string) => void;
  onClose: () => void;
}

/**
 * The large code dialog: input port data models, the code, output port data models ('Hide
 * schemas' / 'Show schemas'). The code applies only on Save (Ok for a link), offered only when
 * writable; Cancel discards; the close control asks 'Quit ?'.
 */
export function CodeDialog({ title, code, readOnly, inputs, outputs, confirmText, onConfirm, onClose }: CodeDialogProps) {
  const modal = useDialogCalls();
  const [draft, setDraft] = useState(code);
  const [schemasShown, setSchemasShown] = useState(true);
  const quit = async () => {
    if (await askConfirmation(modal, CODE_TEXTS.quit)) onClose();
  };
  const footer = [
    <Button key="schemas" onClick={() => setSchemasShown((s) => !s)}>
      {schemasShown ? CODE_TEXTS.hideSchemas : CODE_TEXTS.showSchemas}
    </Button>,
    <Button key="cancel" onClick={onClose}>
      {CODE_TEXTS.cancel}
    </Button>,
    ...(readOnly
      ? []
      : [
          <Button key="ok" type="primary" onClick={() => onConfirm(draft)}>
            {confirmText}
          </Button>,
        ]),
  ];
  return (
    <Dialog
      open
      title={title}
      width="90%"
      mask={{ closable: false }}
      keyboard={false}
      onCancel={() => void quit()}
      footer={footer}
      destroyOnHidden
    >
      <div className={schemasShown ? 'gdb-code-columns' : 'gdb-code-columns gdb-code-columns-single'}>
        {schemasShown && <PortModels label={CODE_TEXTS.inputs} ports={inputs} />}
        <LazyCodeEditor label={title} value={draft} onChange={setDraft} readOnly={readOnly} height="large" />
        {schemasShown && <PortModels label={CODE_TEXTS.outputs} ports={outputs} />}
      </div>
    </Dialog>
  );
}
