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

/** Scrolls the field into view, `offset` px from the top of its container, animated over `duration` ms. */
export function scrollToField(el: HTMLElement, options: ScrollToFailField): Promise<void> {
  const box = containerOf(el, options.container);
  const isPage = box === document.scrollingElement || box === document.documentElement || box === document.body;
  const top = isPage ? 0 : box.getBoundingClientRect().top;
  const start = box.scrollTop;
  const target = Math.max(0, start + el.getBoundingClientRect().top - top + options.offset);
  return new Promise((resolve) => {
    if (options.duration <= 0 || start === target) {
      box.scrollTop = target;
      resolve();
      return;
    }
    const began = performance.now();
    const step = () => {
      const t = Math.min(1, (performance.now() - began) / options.duration);
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
