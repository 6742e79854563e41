import { CODES } from '@gdb/shared/api/envelope';
import type { ExtendedError } from 'socket.io';
import type { Authenticate } from '../auth/access-control.ts';
import { AppError } from '../http/errors.ts';
import { LIVE_MESSAGES, type LiveSocket } from './live-types.ts';

function connectError(message: string, code: number): ExtendedError {
  return Object.assign(new Error(message), { data: { code } });
}

/** What the handshake needs of the hub: the token check, and how many sockets a user holds against how many they may. */
export interface HandshakeDeps {
  authenticate: Authenticate;
  userSockets: (userId: string) => number;
  maxSocketsPerUser: number;
}

/**
 * The live channel's handshake check: a handshake token is optional (docs/product.md §15.2 puts it
 * in the messages); one that is sent must be valid, and its user under their socket limit. What it
 * finds is left in the socket's data for the connection.
 */
export function liveHandshake(deps: HandshakeDeps) {
  return (socket: LiveSocket, next: (err?: ExtendedError) => void): void => {
    const token: unknown = socket.handshake.auth.token;
    socket.data.caller = undefined;
    socket.data.token = undefined;
    if (token === undefined || token === null || token === '') {
      next();
      return;
    }
    if (typeof token !== 'string') {
      next(connectError(LIVE_MESSAGES.authRequired, CODES.badToken));
      return;
    }
    deps.authenticate(token).then(
      (caller) => {
        if (deps.userSockets(caller.userId) >= deps.maxSocketsPerUser) {
          next(connectError(LIVE_MESSAGES.tooManySockets, CODES.tooMany));
          return;
        }
        socket.data.caller = caller;
        socket.data.token = token;
        next();
      },
      (error: unknown) =>
        next(
          error instanceof AppError
            ? connectError(error.message, error.code)
            : connectError(LIVE_MESSAGES.internal, CODES.internal),
        ),
    );
  };
}
