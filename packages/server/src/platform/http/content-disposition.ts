/** Characters RFC 5987 lets through unencoded that encodeURIComponent leaves alone too, less these. */
const NOT_ATTR_CHAR = /['()*]/g;

/**
 * A `Content-Disposition: attachment` header naming any file (RFC 6266): `filename*` holds the
 * name in UTF-8, and `filename` an ASCII stand-in (other characters, quotes and backslashes as
 * `_`) for clients that read only that one. A header value must be Latin-1, so the name itself
 * never goes in as it is.
 */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  // A lone surrogate has no UTF-8 form: it is sent as U+FFFD, as Node writes it in a body.
  const encoded = encodeURIComponent(name.replace(/\p{Cs}/gu, '\uFFFD')).replace(
    NOT_ATTR_CHAR,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
