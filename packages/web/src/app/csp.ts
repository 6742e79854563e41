const PLACEHOLDER = '__CSP_NONCE__';

/** The style nonce the server wrote into index.html, if it did (the dev server leaves the placeholder). */
export function readCspNonce(doc: Document = document): string | undefined {
  const value = doc.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content;
  return value && value !== PLACEHOLDER ? value : undefined;
}
