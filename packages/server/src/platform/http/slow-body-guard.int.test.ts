import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocal } from '../../../test/live-kit.ts';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { loadConfig } from '../config.ts';

let t: TestApp;
let port: number;

beforeAll(async () => {
  // Windows of half a second stand for the app's 20 s ones within a test's time.
  const http = { ...loadConfig({}).http, bodyRateWindowMs: 500 };
  t = await createTestApp({ http });
  port = Number(new URL(await listenLocal(t.app)).port);
});

afterAll(async () => {
  await t.close();
});

/** Opens a raw connection and starts a POST whose body is sent by `send`; answers when the server closed it. */
function post(send: (socket: net.Socket) => void, length: number): Promise<{ closedAfterMs: number; answer: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${BASE}/users/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`,
      );
      send(socket);
    });
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ closedAfterMs: Date.now() - started, answer }));
  });
}

describe('slow request bodies', () => {
  it('closes a connection whose body trickles in a byte at a time', async () => {
    let timer: NodeJS.Timeout | undefined;
    const result = await post((socket) => {
      timer = setInterval(() => socket.write('{'), 100);
    }, 10_000);
    clearInterval(timer);
    expect(result.closedAfterMs).toBeLessThan(3_000);
    expect(result.answer).toBe('');
  });

  it('keeps a body that arrives at a normal pace', async () => {
    const body = JSON.stringify({ username: 'nobody', password: 'x'.repeat(20_000) });
    const result = await post((socket) => {
      let sent = 0;
      const timer = setInterval(() => {
        socket.write(body.slice(sent, sent + 2_000));
        sent += 2_000;
        if (sent >= body.length) clearInterval(timer);
      }, 100);
      socket.setTimeout(5_000, () => socket.destroy());
      socket.once('data', () => {
        clearInterval(timer);
        socket.end();
      });
    }, body.length);
    expect(result.answer).toMatch(/^HTTP\/1\.1 \d{3}/);
  });

  it('sets the request and idle timeouts of the HTTP server from the configuration', async () => {
    expect(t.app.server.requestTimeout).toBe(300_000);
    expect(t.app.server.timeout).toBe(120_000);
    const config = loadConfig({
      HTTP_REQUEST_TIMEOUT_S: '90',
      RUNTIME_TIMEOUT_MS: '600000',
      HTTP_MIN_BODY_RATE_KIB: '0',
      HTTP_ACTIVE_READS: '4',
    });
    expect(config.http).toEqual({
      requestTimeoutMs: 90_000,
      idleTimeoutMs: 630_000,
      minBodyBytesPerSecond: 0,
      bodyRateWindowMs: 20_000,
      activeReads: 4,
    });
    expect(loadConfig({}).http.activeReads).toBe(10);
    expect(() => loadConfig({ HTTP_ACTIVE_READS: '-1' })).toThrow();
  });
});
