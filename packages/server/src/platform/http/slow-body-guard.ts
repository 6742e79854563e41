import type { IncomingMessage, Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';

export interface SlowBodyOptions {
  /** Fewest bytes per second a request body must arrive at, measured over each window (0: any). */
  minBytesPerSecond: number;
  /** How long each measured window lasts. */
  windowMs: number;
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Closes the connection of a request whose body arrives slower than the minimum rate, so a body
 * trickled a byte at a time cannot hold a socket and its buffers for the whole request timeout.
 * A window in which the server itself is not reading (its buffer full) does not count.
 */
export function guardSlowBodies(server: Server, options: SlowBodyOptions, log: FastifyBaseLogger): void {
  if (options.minBytesPerSecond <= 0) return;
  const minPerWindow = (options.minBytesPerSecond * options.windowMs) / 1000;
  server.on('request', (req: IncomingMessage) => {
    if (!hasBody(req) || req.complete) return;
    const socket = req.socket;
    let last = socket.bytesRead;
    const timer = setInterval(() => {
      const read = socket.bytesRead;
      const arrived = read - last;
      last = read;
      const serverBehind = req.readableLength >= req.readableHighWaterMark;
      if (req.complete || serverBehind || arrived >= minPerWindow) return;
      log.info({ url: req.url, arrived, windowMs: options.windowMs }, 'http: request body too slow, connection closed');
      socket.destroy();
    }, options.windowMs);
    timer.unref();
    // A kept-alive socket carries many requests: each one's listener goes when its body has arrived.
    const stop = () => {
      clearInterval(timer);
      req.off('end', stop);
      req.off('close', stop);
      socket.off('close', stop);
    };
    req.once('end', stop);
    req.once('close', stop);
    socket.once('close', stop);
  });
}
