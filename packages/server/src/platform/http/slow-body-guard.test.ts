import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { guardSlowBodies } from './slow-body-guard.ts';

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
});

describe('the slow body guard on a kept-alive connection', () => {
  it('leaves no listener behind on the socket once each request’s body has arrived', async () => {
    const sockets = new Set<import('node:net').Socket>();
    server = http.createServer((req, res) => {
      sockets.add(req.socket);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    guardSlowBodies(server, { minBytesPerSecond: 1024, windowMs: 20_000 }, { info: () => {} } as unknown as FastifyBaseLogger);
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const baseline = new Set<number>();
    for (let i = 0; i < 30; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/', agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end('{"some":"body"}');
      });
      for (const s of sockets) baseline.add(s.listenerCount('close'));
    }
    agent.destroy();
    expect(sockets.size).toBe(1);
    // Node's own listeners stay; one per request would have grown to 30 and more.
    expect(Math.max(...baseline)).toBeLessThan(6);
  });
});
