import { describe, expect, it } from 'vitest';
import { unsafeDialogs } from './check-dialogs.mjs';

const lines = (text: string) => unsafeDialogs(text).map((d: { line: number }) => d.line);

describe('the dialogs check', () => {
  it('finds a Modal, a Drawer and a modal call that open without their CSP-safe props', () => {
    const text = [
      '<Modal open title="A" onCancel={() => close()}>',
      '<Drawer open={x > 1} onClose={close}>',
      "modal.confirm({ title: 'Confirm logout', onOk: () => resolve(true) });",
      'Modal.error({ content: <b>no</b> });',
    ].join('\n');
    expect(lines(text)).toEqual([1, 2, 3, 4]);
  });

  it('lets through the ones that carry them, whatever else their props hold', () => {
    const text = [
      '<Modal',
      '  open',
      '  {...CSP_SAFE_MODAL}',
      '  footer={<Button onClick={() => go(a > b)}>Go</Button>}',
      '>',
      '<Drawer title="Show UI" open={dialog?.kind === "ui"} {...CSP_SAFE_DRAWER}>',
      "modal.confirm({ ...CSP_SAFE_MODAL, title: 'Confirmation', onOk: () => resolve(true) });",
      '<ModalFooter />',
      'const modals = useModals();',
    ].join('\n');
    expect(lines(text)).toEqual([]);
  });
});
