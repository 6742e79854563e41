// The page side of the browser bench harness: a page entry mounts what it measures and exposes
// measure functions, each answering the milliseconds from an action until the browser has painted.
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';

type Measure = (...args: never[]) => Promise<number> | number;

declare global {
  interface Window {
    __bench?: Record<string, Measure>;
    __benchReady?: boolean;
  }
}

/** Resolves once the browser has painted the current frame (a frame, then a task after it). */
export function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Milliseconds from running `action` until the frame it caused has been painted. */
export async function timeUntilPaint(action: () => void | Promise<void>): Promise<number> {
  const started = performance.now();
  await action();
  await nextPaint();
  return performance.now() - started;
}

let root: Root | undefined;

/** Renders `element` into #root synchronously (replacing what was there). */
export function mount(element: ReactNode): void {
  const host = document.getElementById('root');
  if (!host) throw new Error('The bench page has no #root element.');
  root ??= createRoot(host);
  flushSync(() => root?.render(element));
}

/** Removes what is mounted, so the next mount measures a first render. */
export function unmount(): void {
  root?.unmount();
  root = undefined;
}

/** Makes the measure functions callable by the harness and tells it the page is ready. */
export function exposeBench(measures: Record<string, Measure>): void {
  window.__bench = measures;
  window.__benchReady = true;
}
