import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { AppError } from '../../platform/http/errors.ts';
import { listenLocal } from '../../platform/live/live-test-kit.ts';
import { uploadBudget } from './upload-budget.ts';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ uploadInFlightBytes: 64 * 1024 });
  port = Number(new URL(await listenLocal(t.app)).port);
});

afterAll(async () => {
  await t.close();
});

describe('the bytes of uploads in flight', () => {
  it('reserves each request its length, refuses past the budget with a retry hint, and gives them back', () => {
    const budget = uploadBudget(100);
    const first = budget.reserve(60);
    expect(() => budget.reserve(50)).toThrow(AppError);
    try {
      budget.reserve(50);
    } catch (error) {
      expect(error).toMatchObject({ status: 503, retryAfterSeconds: 10 });
    }
    first();
    first();
    expect(budget.inFlight()).toBe(0);
    // One request larger than the budget alone still gets in.
    const big = budget.reserve(500);
    big();
  });

  it('answers 503 with Retry-After to an upload while others hold the budget, and takes it once they are done', async () => {
    const { token } = await t.signedIn(['manager']);
    // An upload that declares 60 KiB and sends them slowly, holding its share of the budget.
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.on('error', () => {});
    socket.write(
      `POST ${BASE}/uploads HTTP/1.1\r\nHost: x\r\nX-Token: ${token}\r\n` +
        'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 61440\r\n\r\n--b\r\n',
    );
    // The handler runs once the headers are in: wait until it holds its share.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const body = Buffer.from('--b\r\nContent-Disposition: form-data; name="pipelineId"\r\n\r\nx\r\n--b--\r\n');
    const refused = await t.app.inject({
      method: 'POST',
      url: `${BASE}/uploads`,
      headers: { 'x-token': token, 'content-type': 'multipart/form-data; boundary=b' },
      payload: Buffer.concat([body, Buffer.alloc(8 * 1024, 32)]),
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json().message).toBe('The server is receiving too many files at once. Please try again in a few seconds.');
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const taken = await t.app.inject({
      method: 'POST',
      url: `${BASE}/uploads`,
      headers: { 'x-token': token, 'content-type': 'multipart/form-data; boundary=b' },
      payload: body,
    });
    // In: refused for its content (no valid pipeline id), not for the budget.
    expect(taken.statusCode).toBe(422);
  });
});
