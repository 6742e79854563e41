import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

/**
 * The receive buffer a large body's connection asks the kernel for (Linux doubles it, up to twice
 * `net.core.rmem_max`). The kernel keeps only what this buffer holds between two reads of the
 * socket, and the server reads a socket once a turn of its event loop: with the default buffer
 * (grown by how fast the reader drained it) a 20 MiB upload came in 100-odd turns of a busy
 * server; with this one it was read in 0.19 s instead of 0.49 s (the embedded database).
 */
export const LARGE_BODY_RECEIVE_BYTES = 4 * 1024 * 1024;

/**
 * The least the kernel must allow a socket to ask for (`net.core.rmem_max`) for the buffer to be
 * set at all: a buffer set is no longer grown by the kernel as the reader drains it, so one capped
 * lower (the kernel's own default cap is 208 KiB) could leave a fast connection less than it grows to.
 */
const LEAST_KERNEL_CAP = 1024 * 1024;

/** What a large body's connection asks for under a kernel cap of `rmemMax` bytes, or null when it should not ask. */
export function receiveBufferToAsk(rmemMax: number): number | null {
  if (!Number.isFinite(rmemMax) || rmemMax < LEAST_KERNEL_CAP) return null;
  return Math.min(LARGE_BODY_RECEIVE_BYTES, rmemMax);
}

/** The kernel's cap on a socket's receive buffer, read once; 0 where it cannot be read. */
let kernelCap: number | undefined;
function rmemMax(): number {
  if (kernelCap === undefined) {
    try {
      kernelCap = Number(fs.readFileSync('/proc/sys/net/core/rmem_max', 'utf8'));
    } catch {
      kernelCap = 0;
    }
  }
  return kernelCap;
}

/**
 * What a large body's connection asks for on this machine, or null where it asks for nothing (another
 * system, the module missing, the kernel's cap too low).
 */
export function largeBodyReceiveBuffer(): number | null {
  return socketOptions() ? receiveBufferToAsk(rmemMax()) : null;
}

/** Whether this process can set a socket's receive buffer (Linux, with the module loaded). */
export function canSetReceiveBuffer(): boolean {
  return socketOptions() !== null;
}

/** Linux's `SOL_SOCKET` and `SO_RCVBUF`. */
const SOL_SOCKET = 1;
const SO_RCVBUF = 8;

interface SocketOptions {
  setsockopt(socket: Socket, level: number, name: number, value: number): void;
  getsockopt(socket: Socket, level: number, name: number): number;
}

/** The socket options module (an optional dependency built at install), or null where it cannot load. */
let loaded: SocketOptions | null | undefined;

function socketOptions(): SocketOptions | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.platform !== 'linux') return loaded;
  try {
    loaded = createRequire(import.meta.url)('sockopt') as SocketOptions;
  } catch {
    // Not installed or not built for this machine: bodies come with the kernel's own buffer.
  }
  return loaded;
}

/** A connection's file descriptor, when it is a plain TCP socket of this process. */
function hasDescriptor(socket: Socket): boolean {
  const handle = (socket as unknown as { _handle?: { fd?: unknown } })._handle;
  return typeof handle?.fd === 'number' && handle.fd >= 0;
}

/** `use` of the socket options on a plain TCP connection of this process; null where it cannot be. */
function withOptions<T>(socket: Socket, use: (options: SocketOptions) => T): T | null {
  const options = socketOptions();
  if (!options || !hasDescriptor(socket)) return null;
  try {
    return use(options);
  } catch {
    // A connection gone meanwhile.
    return null;
  }
}

/** The connection's receive buffer as the kernel has it, or null where it cannot be read. */
export function receiveBufferOf(socket: Socket): number | null {
  return withOptions(socket, (options) => options.getsockopt(socket, SOL_SOCKET, SO_RCVBUF));
}

/**
 * Asks for a larger receive buffer on the connection a large body comes on; answers the buffer the
 * kernel then gives, or null where it is not set (another system, the module missing, a kernel
 * cap too low, a TLS socket, a connection gone). The buffer stays the connection's size while it
 * lives: the kernel holds memory for it only as bytes wait in it.
 */
export function widenReceiveBuffer(socket: Socket): number | null {
  const bytes = largeBodyReceiveBuffer();
  if (bytes === null) return null;
  return withOptions(socket, (options) => {
    if (options.getsockopt(socket, SOL_SOCKET, SO_RCVBUF) < bytes) options.setsockopt(socket, SOL_SOCKET, SO_RCVBUF, bytes);
    return options.getsockopt(socket, SOL_SOCKET, SO_RCVBUF);
  });
}
