import { configure } from '@testing-library/react';
import NProgress from 'nprogress';
import { afterAll, afterEach, vi } from 'vitest';
import './fast-style.ts';

// The progress bar finishes on timers that would otherwise fire after the page's document is
// gone; without animation they all run at once, and each test file waits for them before it ends.
NProgress.configure({ speed: 0, trickle: false });
afterAll(() => new Promise((resolve) => setTimeout(resolve, 50)));

// antd screens in jsdom render slowly while the server tests share the machine's two cores: the
// queries that wait for an element wait longer than their one second by default.
configure({ asyncUtilTimeout: 5_000 });

// Every test starts without the fake fetch (or other stubbed globals) of the one before.
afterEach(() => {
  vi.unstubAllGlobals();
});

// jsdom draws no layout: the code editor (CodeMirror) measures text ranges, which jsdom's Range lacks.
if (typeof Range !== 'undefined' && !Range.prototype.getClientRects) {
  const empty = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getClientRects = empty;
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}
