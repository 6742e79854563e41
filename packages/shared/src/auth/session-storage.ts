/**
 * The three keys of a session in the browser's localStorage (docs/product.md §4.5): the web app keeps
 * the session there, and the API description page reads the access token from it.
 */
export const TOKEN_KEYS = {
  token: 'gdb-token',
  expireAt: 'gdb-token-expire-at',
  refreshToken: 'gdb-refresh-token',
} as const;
