import { describe, expect, it } from 'vitest';
import { readCspNonce } from './csp.ts';

function page(content: string | null): Document {
  const doc = document.implementation.createHTMLDocument('t');
  if (content !== null) {
    const meta = doc.createElement('meta');
    meta.name = 'csp-nonce';
    meta.content = content;
    doc.head.append(meta);
  }
  return doc;
}

describe('readCspNonce', () => {
  it('answers the nonce the server wrote into index.html', () => {
    expect(readCspNonce(page('3f9a0c'))).toBe('3f9a0c');
  });

  it('answers nothing when the placeholder was not replaced (dev server) or the tag is missing', () => {
    expect(readCspNonce(page('__CSP_NONCE__'))).toBeUndefined();
    expect(readCspNonce(page(''))).toBeUndefined();
    expect(readCspNonce(page(null))).toBeUndefined();
  });
});
