import { createElement, type ReactNode } from 'react';

/**
 * HTML of an `HTML` field, drawn without injecting markup: the text is parsed into an inert
 * document and only plain formatting elements (and http(s) links) are rebuilt as React elements;
 * scripts, styles, event attributes and other URLs are dropped.
 */
const ALLOWED = new Set([
  'p',
  'div',
  'span',
  'b',
  'strong',
  'i',
  'em',
  'u',
  'small',
  'br',
  'hr',
  'ul',
  'ol',
  'li',
  'code',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const VOID = new Set(['br', 'hr']);

function convert(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  const children = [...el.childNodes].map(convert);
  if (!ALLOWED.has(tag)) return tag === 'script' || tag === 'style' ? null : children;
  const props: Record<string, unknown> = { key };
  if (tag === 'a') {
    const href = el.getAttribute('href') ?? '';
    if (/^https?:\/\//i.test(href)) Object.assign(props, { href, target: '_blank', rel: 'noopener noreferrer' });
  }
  return VOID.has(tag) ? createElement(tag, props) : createElement(tag, props, ...children);
}

export function SafeHtml({ html, className }: { html: string; className?: string }) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return <div className={className}>{[...doc.body.childNodes].map(convert)}</div>;
}
