// Fast queries for the Users screen tests: role queries compute styles over antd's whole style
// sheet in jsdom and take seconds each; these look at text and attributes only.
import { waitFor } from '@testing-library/react';
import { expect } from 'vitest';

const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The enabled or disabled button whose text is `name`, or undefined. */
export function queryButton(name: string, within: ParentNode = document): HTMLButtonElement | undefined {
  return [...within.querySelectorAll('button')].find((b) => text(b) === name);
}

/** The button whose text is `name`; fails when there is none. */
export function button(name: string, within: ParentNode = document): HTMLButtonElement {
  const found = queryButton(name, within);
  if (!found) throw new Error(`No button "${name}"`);
  return found;
}

/** Waits for the open Yes/No question and answers its element. */
export async function confirmation(): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = document.querySelector<HTMLElement>('.ant-modal-confirm');
    expect(found).not.toBeNull();
  });
  if (!found) throw new Error('No confirmation');
  return found;
}

/** Waits for the modal titled `title` and answers its element. */
export async function dialog(title: string): Promise<HTMLElement> {
  let found: HTMLElement | undefined;
  await waitFor(() => {
    found = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find(
      (m) => text(m.querySelector('.ant-modal-title') ?? m) === title,
    );
    expect(found).toBeDefined();
  });
  if (!found) throw new Error(`No dialog "${title}"`);
  return found;
}
