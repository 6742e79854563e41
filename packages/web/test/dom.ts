// What jsdom lacks for antd, and a clean browser state before each test of the web project.
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Rendering antd in jsdom on a busy machine is slow; these tests wait for real renders.
vi.setConfig({ testTimeout: 60_000 });

// The first render of a lazy page transforms antd on the fly, slow on a busy machine: allow for it.
configure({ asyncUtilTimeout: 30_000 });

if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}

if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

/** Removes every cookie of the page. */
function clearCookies(): void {
  for (const c of document.cookie.split('; ')) {
    const name = c.split('=')[0];
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
}

/** Sets the window width and tells listeners. */
export function resizeWindow(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

beforeEach(() => {
  localStorage.clear();
  clearCookies();
  resizeWindow(1280);
  document.title = '';
});

afterEach(() => {
  cleanup();
});
