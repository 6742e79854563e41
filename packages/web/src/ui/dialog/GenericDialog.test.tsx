import '../../../test/dom.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../test/render-widget.tsx';
import { GenericDialog } from './GenericDialog.tsx';

describe('GenericDialog', () => {
  it("is titled 'GlobalDB Dialog', 30% wide, with Cancel only when it validates nothing", async () => {
    const onCancel = vi.fn();
    renderWidget(<GenericDialog open onCancel={onCancel} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('GlobalDB Dialog')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'OK' })).toBeNull();
    expect((document.querySelector('.ant-modal') as HTMLElement).style.width).toBe('30%');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });

  it('with validation, OK is disabled until allowed', async () => {
    const onOk = vi.fn();
    const { view } = renderWidget(<GenericDialog open title="Name" validation allowed={false} onOk={onOk} onCancel={() => {}} />);
    const ok = await screen.findByRole('button', { name: 'OK' });
    expect(ok).toHaveProperty('disabled', true);
    view.rerender(<GenericDialog open title="Name" validation allowed onOk={onOk} onCancel={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalled();
  });
});
