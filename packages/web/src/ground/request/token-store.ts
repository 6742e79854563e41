import type { accessTokenSchema } from '@gdb/shared/auth/session.schemas';
import { TOKEN_KEYS } from '@gdb/shared/auth/session-storage';
import type { z } from 'zod';

export { TOKEN_KEYS };

export type AccessToken = z.infer<typeof accessTokenSchema>;

/** A token this close to its expiry counts as expired, so it does not lapse in flight. */
const EXPIRY_MARGIN_MS = 5_000;

const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values(TOKEN_KEYS).some((k) => k === event.key)) changed();
  });
}

/** The stored access token, if both its value and expiry are there. */
export function getToken(): AccessToken | null {
  const value = localStorage.getItem(TOKEN_KEYS.token);
  const expireAt = Number(localStorage.getItem(TOKEN_KEYS.expireAt));
  if (!value || !Number.isFinite(expireAt) || expireAt <= 0) return null;
  return { value, expireAt };
}

export function getRefreshToken(): string | null {
  return localStorage.getItem(TOKEN_KEYS.refreshToken) || null;
}

/** True when the token has expired (or is about to). */
export function isExpired(token: AccessToken, now = Date.now()): boolean {
  return token.expireAt - EXPIRY_MARGIN_MS <= now;
}

/** Stores a new access token and, when given, the refresh token that came with it. */
export function saveTokens(token: AccessToken, refreshToken?: string | null): void {
  localStorage.setItem(TOKEN_KEYS.token, token.value);
  localStorage.setItem(TOKEN_KEYS.expireAt, String(token.expireAt));
  if (refreshToken) localStorage.setItem(TOKEN_KEYS.refreshToken, refreshToken);
  changed();
}

/** Removes the token, its expiry and the refresh token. */
export function clearTokens(): void {
  for (const key of Object.values(TOKEN_KEYS)) localStorage.removeItem(key);
  changed();
}

/** True when a session is stored: an access token or a refresh token to get one. */
export function hasSession(): boolean {
  return Boolean(localStorage.getItem(TOKEN_KEYS.token) || getRefreshToken());
}

/** For useSyncExternalStore: re-render when the tokens change, in this tab or another. */
export function subscribeTokens(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
