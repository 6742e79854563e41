import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  canSetReceiveBuffer,
  LARGE_BODY_RECEIVE_BYTES,
  largeBodyReceiveBuffer,
  receiveBufferOf,
  receiveBufferToAsk,
  widenReceiveBuffer,
} from './receive-buffer.ts';

const open: Array<net.Server | net.Socket> = [];
afterEach(() => {
  for (const o of open.splice(0)) 'destroy' in o ? o.destroy() : o.close();
});

/** A connected pair on the loopback: the server's end and the client's. */
async function connection(): Promise<{ accepted: net.Socket; client: net.Socket }> {
  const server = net.createServer();
  open.push(server);
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  open.push(client);
  const socket = await accepted;
  open.push(socket);
  return { accepted: socket, client };
}

describe('the receive buffer a large body asks for', () => {
  it('can be set on Linux, where the module is built at install', () => {
    expect(canSetReceiveBuffer()).toBe(process.platform === 'linux');
  });

  it('is 4 MiB, or the kernel’s cap when lower, and nothing under a cap below 1 MiB', () => {
    expect(receiveBufferToAsk(8 * 1024 * 1024)).toBe(LARGE_BODY_RECEIVE_BYTES);
    expect(receiveBufferToAsk(2 * 1024 * 1024)).toBe(2 * 1024 * 1024);
    expect(receiveBufferToAsk(212_992)).toBeNull();
    expect(receiveBufferToAsk(Number.NaN)).toBeNull();
  });
});

// Set only on Linux where the kernel lets a socket ask for 1 MiB or more (as on this project's machines).
describe.runIf(largeBodyReceiveBuffer() !== null)('a connection’s receive buffer', () => {
  it('is widened for a large body, to twice what it asks (the kernel’s count), and once only', async () => {
    const { accepted } = await connection();
    const before = receiveBufferOf(accepted) as number;
    expect(before).toBeGreaterThan(0);
    const after = widenReceiveBuffer(accepted);
    expect(after).toBe(2 * (largeBodyReceiveBuffer() as number));
    expect(after).toBeGreaterThan(before);
    expect(widenReceiveBuffer(accepted)).toBe(after);
  });

  it('cannot be set on a connection gone, or on a socket of no connection', async () => {
    const { accepted } = await connection();
    accepted.destroy();
    expect(widenReceiveBuffer(accepted)).toBeNull();
    expect(widenReceiveBuffer(new net.Socket())).toBeNull();
  });
});
