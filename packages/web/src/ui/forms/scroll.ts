import type { ScrollToFailField } from './schema.ts';

function scrollableAncestor(el: HTMLElement): HTMLElement {
  for (let at = el.parentElement; at; at = at.parentElement) {
    const { overflowY } = getComputedStyle(at);
    if ((overflowY === 'auto' || overflowY === 'scroll') && at.scrollHeight > at.clientHeight) return at;
  }
  return (document.scrollingElement as HTMLElement | null) ?? document.documentElement;
}

/** The element that scrolls: `body` means the nearest scrolling area around the field (the page's, else a drawer's). */
function containerOf(el: HTMLElement, container: string): HTMLElement {
  if (container && container !== 'body') {
    const found = document.querySelector<HTMLElement>(container);
    if (found) return found;
  }
  return scrollableAncestor(el);
}

const frame = (fn: (t: number) => void) =>
  typeof requestAnimationFrame === 'function' ? requestAnimationFrame(fn) : setTimeout(() => fn(Date.now()), 16);
const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

function targetOf(el: HTMLElement, box: HTMLElement, offset: number): number {
  const isPage = box === document.scrollingElement || box === document.documentElement || box === document.body;
  const top = isPage ? 0 : box.getBoundingClientRect().top;
  return Math.max(0, box.scrollTop + el.getBoundingClientRect().top - top + offset);
}

/**
 * Scrolls the field into view, `offset` px from the top of its container, animated over `duration`
 * ms; cells out of view have an estimated height until drawn, so the end position is measured again.
 */
export async function scrollToField(el: HTMLElement, options: ScrollToFailField): Promise<void> {
  const box = containerOf(el, options.container);
  await animate(box, targetOf(el, box, options.offset), options.duration);
  await new Promise((resolve) => frame(resolve));
  box.scrollTop = targetOf(el, box, options.offset);
}

function animate(box: HTMLElement, target: number, duration: number): Promise<void> {
  const start = box.scrollTop;
  return new Promise((resolve) => {
    if (duration <= 0 || start === target) {
      box.scrollTop = target;
      resolve();
      return;
    }
    const began = performance.now();
    const step = () => {
      const t = Math.min(1, (performance.now() - began) / duration);
      box.scrollTop = start + (target - start) * ease(t);
      if (t < 1) frame(step);
      else resolve();
    };
    frame(step);
  });
}

const visible = (el: HTMLElement) => el.getClientRects().length > 0 || el.offsetParent !== null;

/** The first field showing an error, in document order, that is visible. */
export function firstVisibleError(root: HTMLElement): HTMLElement | undefined {
  return [...root.querySelectorAll<HTMLElement>('[data-field-status="invalid"]')].find(visible);
}
