import { LIVE_PATH } from '@gdb/shared/live/live.schemas';
import { io } from 'socket.io-client';
import type { LiveSocketFactory } from './live-types.ts';

/** socket.io on this page's host (or `url`), path /data-prep/v1, websocket only; opened by the live client. */
export function socketIoFactory(url?: string): LiveSocketFactory {
  return (auth) => {
    const options = { path: LIVE_PATH, transports: ['websocket'], autoConnect: false, auth, reconnectionDelayMax: 10_000 };
    const socket = url ? io(url, options) : io(options);
    return {
      get connected() {
        return socket.connected;
      },
      get active() {
        return socket.active;
      },
      connect: () => {
        socket.connect();
      },
      disconnect: () => {
        socket.disconnect();
      },
      emit: (event, payload) => {
        socket.emit(event, payload);
      },
      on: (event, listener) => {
        socket.on(event, listener);
      },
    };
  };
}
