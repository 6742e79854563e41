import '../../test/dom.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { openOnFirstField } from './dialogFirstField.ts';

/** A dialog as antd draws it: Close first, then the body with its fields, then the footer. */
function dialog(body: string): { opener: HTMLButtonElement; close: HTMLButtonElement; root: HTMLElement } {
  document.body.innerHTML = `<button id="opener">Open</button>
    <div class="ant-modal"><button class="ant-modal-close">Close</button>
    <div class="ant-modal-body">${body}</div><div class="ant-modal-footer"><button id="ok">OK</button></div></div>`;
  document.addEventListener('focusin', openOnFirstField);
  const root = document.querySelector<HTMLElement>('.ant-modal') as HTMLElement;
  // jsdom lays nothing out: every element counts as shown.
  for (const el of root.querySelectorAll<HTMLElement>('*')) el.getClientRects = () => [new DOMRect(0, 0, 10, 10)] as never;
  return {
    opener: document.getElementById('opener') as HTMLButtonElement,
    close: root.querySelector('.ant-modal-close') as HTMLButtonElement,
    root,
  };
}

afterEach(() => {
  document.removeEventListener('focusin', openOnFirstField);
  document.body.innerHTML = '';
});

describe('a dialog opens on its first field', () => {
  it('moves the focus from Close to the first field a person can type in when the dialog opens', () => {
    const { opener, close } = dialog('<input readonly value="fixed"><input type="file"><input id="name"><textarea></textarea>');
    opener.focus();
    close.focus();
    expect(document.activeElement?.id).toBe('name');
  });

  it('leaves Close focused for a dialog without a field, and when the focus comes from inside the dialog', () => {
    const { opener, close, root } = dialog('<p>No field</p>');
    opener.focus();
    close.focus();
    expect(document.activeElement).toBe(close);
    root.querySelector<HTMLElement>('.ant-modal-body')?.insertAdjacentHTML('beforeend', '<input id="later">');
    (root.querySelector('#later') as HTMLElement).getClientRects = () => [new DOMRect(0, 0, 10, 10)] as never;
    (root.querySelector('#ok') as HTMLElement).focus();
    // Shift+Tab round from the footer reaches Close: the person meant it.
    close.focus();
    expect(document.activeElement).toBe(close);
  });
});
