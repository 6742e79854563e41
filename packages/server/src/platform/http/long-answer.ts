import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The socket's idle limit, if it is a network socket (an injected request has none). */
const idleLimitOf = (socket: Socket | undefined) =>
  socket && typeof socket.setTimeout === 'function' ? (socket.timeout ?? 0) : undefined;

/**
 * For a call whose answer may take long (a test run waiting for its caller's turn, then running
 * up to its time limit): its connection is not closed as idle while the answer is made, so the
 * answer always reaches a client still waiting; and the signal answered aborts when the client
 * goes away first, so nothing goes on running, or waiting, for nobody.
 */
export function longAnswer(req: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const socket: Socket | undefined = req.raw.socket;
  const idleMs = idleLimitOf(socket);
  if (idleMs !== undefined) socket?.setTimeout(0);
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
    if (idleMs !== undefined && socket && !socket.destroyed) socket.setTimeout(idleMs);
  });
  return controller.signal;
}
