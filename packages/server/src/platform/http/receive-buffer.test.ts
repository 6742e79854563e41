import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LARGE_BODY_RECEIVE_BYTES, receiveBufferOf, widenReceiveBuffer } from './receive-buffer.ts';

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

/** The largest receive buffer the kernel gives a socket that asks (twice `net.core.rmem_max`). */
const kernelCap = () => 2 * Number(fs.readFileSync('/proc/sys/net/core/rmem_max', 'utf8'));

describe.runIf(process.platform === 'linux')('a connection’s receive buffer', () => {
  it('is widened for a large body, to what the kernel allows', async () => {
    const { accepted } = await connection();
    const before = receiveBufferOf(accepted) as number;
    expect(before).toBeGreaterThan(0);
    const after = widenReceiveBuffer(accepted);
    expect(after).toBe(Math.min(2 * LARGE_BODY_RECEIVE_BYTES, kernelCap()));
    expect(after).toBeGreaterThan(before);
    expect(receiveBufferOf(accepted)).toBe(after);
  });

  it('is left as it is when already as large', async () => {
    const { accepted } = await connection();
    const first = widenReceiveBuffer(accepted);
    expect(widenReceiveBuffer(accepted, 64 * 1024)).toBe(first);
  });

  it('cannot be set on a connection gone, or on a socket of no connection', async () => {
    const { accepted } = await connection();
    accepted.destroy();
    expect(widenReceiveBuffer(accepted)).toBeNull();
    expect(widenReceiveBuffer(new net.Socket())).toBeNull();
  });
});
