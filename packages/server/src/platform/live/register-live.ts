import type { FastifyInstance } from 'fastify';
import { LiveHub, type LiveHubOptions } from './live-hub.ts';

/**
 * Attaches the live hub to the app's HTTP server (the one `listen` starts), and closes it with
 * the app: sockets are ended before the server stops accepting connections.
 */
export function registerLive(app: FastifyInstance, options: Omit<LiveHubOptions, 'log'>): LiveHub {
  const hub = new LiveHub(app.server, { ...options, log: app.log });
  app.addHook('preClose', async () => {
    await hub.close();
  });
  return hub;
}
