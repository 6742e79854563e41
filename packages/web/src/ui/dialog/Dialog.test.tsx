import '../../../test/dom.ts';
import { fireEvent, render, renderHook, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWidget } from '../../../test/render-widget.tsx';
import { askConfirmation, useDialogCalls, useLocalDialogCalls } from './calls.ts';
import { Dialog, Drawer } from './Dialog.tsx';

/** The style element antd's scroll lock injects (without the CSP nonce), if one is in the page. */
const scrollLockStyle = () => [...document.querySelectorAll('style')].find((s) => s.textContent?.includes('overflow-y: hidden'));

const inApp = ({ children }: { children: ReactNode }) => <AntApp>{children}</AntApp>;

/** Opens an info call from a holder of its own. */
function SaysSaved() {
  const [calls, holder] = useLocalDialogCalls();
  return (
    <>
      <button type="button" onClick={() => calls.info({ title: 'Saved', content: 'Stored.' })}>
        Save
      </button>
      {holder}
    </>
  );
}

describe('the CSP-safe dialogs', () => {
  it('a Dialog opens without the scroll lock, whatever its caller passes', async () => {
    const props = { scrollLock: true } as object;
    renderWidget(
      <Dialog open title="Rename" {...props}>
        body
      </Dialog>,
    );
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(scrollLockStyle()).toBeUndefined();
  });

  it('a Drawer is drawn in the drawers’ own host, not in body, and locks nothing', async () => {
    renderWidget(
      <Drawer open title="Show UI">
        preview
      </Drawer>,
    );
    const text = await screen.findByText('preview');
    expect(text.closest('#gdb-drawers')).toBeTruthy();
    expect(scrollLockStyle()).toBeUndefined();
  });

  it('the app’s confirm call opens without the scroll lock and answers Yes or No', async () => {
    const { result } = renderHook(() => useDialogCalls(), { wrapper: inApp });
    const answer = askConfirmation(result.current, 'Delete it?');
    const yes = await screen.findByRole('button', { name: 'Yes' });
    expect(scrollLockStyle()).toBeUndefined();
    fireEvent.click(yes);
    expect(await answer).toBe(true);
  });

  it('a call opened through a holder of its own takes the same props', async () => {
    render(<SaysSaved />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Stored.')).toBeTruthy();
    expect(scrollLockStyle()).toBeUndefined();
  });
});
