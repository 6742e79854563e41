import { createContext, type ReactNode, useContext } from 'react';
import { liveClient } from './configure.ts';
import type { LiveClient } from './live-client.ts';

const LiveClientContext = createContext<LiveClient | null>(null);

/** Gives the components below another live client than the tab's (tests, previews). */
export function LiveProvider({ client, children }: { client: LiveClient; children: ReactNode }) {
  return <LiveClientContext.Provider value={client}>{children}</LiveClientContext.Provider>;
}

/** The live client of the nearest LiveProvider, else the tab's. */
export function useLiveClient(): LiveClient {
  return useContext(LiveClientContext) ?? liveClient();
}
