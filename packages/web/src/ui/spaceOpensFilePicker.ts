import type { KeyboardEvent } from 'react';

/**
 * antd's drop zone is a role=button that opens the file picker on Enter only: a button also takes
 * Space. Put on an element around it.
 */
export function spaceOpensFilePicker(e: KeyboardEvent<HTMLElement>): void {
  if (e.key !== ' ') return;
  const target = e.target;
  if (!(target instanceof HTMLElement) || target.getAttribute('role') !== 'button') return;
  const input = target.querySelector('input[type=file]');
  if (!(input instanceof HTMLInputElement)) return;
  e.preventDefault();
  input.click();
}
