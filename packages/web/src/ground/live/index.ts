export type { LiveDoc } from './codec.ts';
export { configureLive, type LiveSettings, liveClient } from './configure.ts';
export { LiveProvider, useLiveClient } from './LiveProvider.tsx';
export {
  LIVE_CLIENT_MESSAGES,
  type LiveCallbacks,
  LiveClient,
  type LiveClientOptions,
  type LiveRequest,
  type LiveSocket,
  type LiveSocketFactory,
  type LiveStatus,
} from './live-client.ts';
export { socketIoFactory } from './live-socket.ts';
