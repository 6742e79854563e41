// jsdom's getComputedStyle matches every rule of every style sheet for the element and again for
// each ancestor (inherited properties): with antd's injected styles one call takes up to seconds,
// and antd calls it to align popups and measure scroll bars. The tests never read a cascaded style,
// only whether an element is hidden, so the computed style here is the element's inline style,
// with `display: none` for what is hidden by the `hidden` attribute or by an antd "…-hidden" class
// (a pseudo-element asked for, which jsdom does not implement, gets the element's own).
const HIDDEN_CLASS = /(^|\s)[\w-]+-hidden(\s|$)/;
const cascaded = window.getComputedStyle.bind(window);

function hiddenByMarkup(element: Element): boolean {
  return element.hasAttribute('hidden') || HIDDEN_CLASS.test(element.getAttribute('class') ?? '');
}

window.getComputedStyle = ((element: Element) => {
  if (!(element instanceof HTMLElement || element instanceof SVGElement)) return cascaded(element);
  const style = document.createElement('div').style;
  style.cssText = element.style.cssText;
  if (!style.display) style.display = hiddenByMarkup(element) ? 'none' : 'block';
  if (!style.visibility) style.visibility = 'visible';
  return style;
}) as typeof window.getComputedStyle;
