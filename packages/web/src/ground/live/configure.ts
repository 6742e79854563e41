import { currentToken } from '../request/request.ts';
import { LiveClient } from './live-client.ts';
import { socketIoFactory } from './live-socket.ts';
import type { LiveSocketFactory, TokenGetter } from './live-types.ts';

export interface LiveSettings {
  /** The session token to send; may refresh it first. Defaults to the request layer's (refreshed when expired). */
  getToken: TokenGetter;
  /** Another origin than the page's (development servers). */
  url?: string;
  /** Another socket (tests). */
  createSocket?: LiveSocketFactory;
}

let settings: LiveSettings = { getToken: currentToken };
let client: LiveClient | undefined;

/**
 * Sets how the tab's live client finds the token (and, optionally, where it connects). The token
 * getter is read at every connection and every message, so it can be given at any time.
 */
export function configureLive(next: Partial<LiveSettings>): void {
  const socketChanged = next.url !== undefined || next.createSocket !== undefined;
  settings = { ...settings, ...next };
  if (socketChanged && client && !client.open) client = undefined;
}

/** The tab's live client (one socket per tab). */
export function liveClient(): LiveClient {
  client ??= new LiveClient({
    getToken: () => settings.getToken(),
    createSocket: settings.createSocket ?? socketIoFactory(settings.url),
  });
  return client;
}
