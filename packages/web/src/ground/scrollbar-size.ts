// Stands in for @rc-component/util's getScrollBarSize module (the build points its imports here):
// the same measure of a scroll bar, without the style element it adds to copy an element's
// ::-webkit-scrollbar size, which the content security policy refuses. That size is read from the
// element's computed style instead.

interface Size {
  width: number;
  height: number;
}

let cached: Size | undefined;

/** The ::-webkit-scrollbar size an element's styles give, where they give one smaller than the measuring box. */
function styledSize(element: Element): Partial<Size> {
  const webkit = getComputedStyle(element, '::-webkit-scrollbar');
  const px = (value: string) => {
    const n = Number.parseInt(value, 10);
    return Number.isFinite(n) && n > 0 && n < 100 ? n : undefined;
  };
  return { width: px(webkit.width), height: px(webkit.height) };
}

/** Measures the scroll bars of a 100 × 100 scrolling box, styled as `element`'s when one is given. */
function measure(element?: Element): Size {
  const box = document.createElement('div');
  Object.assign(box.style, { position: 'absolute', left: '0', top: '0', width: '100px', height: '100px', overflow: 'scroll' });
  let styled: Partial<Size> = {};
  if (element) {
    const style = getComputedStyle(element);
    box.style.scrollbarColor = style.scrollbarColor;
    box.style.scrollbarWidth = style.scrollbarWidth;
    styled = styledSize(element);
  }
  document.body.appendChild(box);
  const size = {
    width: styled.width ?? box.offsetWidth - box.clientWidth,
    height: styled.height ?? box.offsetHeight - box.clientHeight,
  };
  box.remove();
  return size;
}

/** The width of the page's scroll bar, measured once unless `fresh`. */
export default function getScrollBarSize(fresh?: boolean): number {
  if (typeof document === 'undefined') return 0;
  if (fresh || cached === undefined) cached = measure();
  return cached.width;
}

/** The size of `target`'s scroll bars. */
export function getTargetScrollBarSize(target: unknown): Size {
  if (typeof document === 'undefined' || !(target instanceof Element)) return { width: 0, height: 0 };
  return measure(target);
}
