import net from 'node:net';
import { z } from 'zod';

/**
 * Which proxies in front of the server are believed about the client's address: none (`false`),
 * the nearest N hops, or the proxies at these addresses (an address or a CIDR range each). Never
 * every hop: a client could then name any address in `X-Forwarded-For` and escape the per-address
 * sign-in limits.
 */
export type TrustProxy = false | number | string[];

const MESSAGE =
  'TRUST_PROXY must be false, a number of proxy hops, or a comma-separated list of proxy addresses, CIDR ranges or loopback, linklocal, uniquelocal';

/** Ranges Fastify knows by name (loopback, link-local and unique-local addresses). */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IPv4 or IPv6 address with an optional /prefix no longer than the address, or a named range. */
function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** The TRUST_PROXY setting: `true` (as it was written before hop counts) stands for the one nearest proxy. */
export const trustProxySetting = z.string().transform((value, ctx): TrustProxy => {
  const text = value.trim().toLowerCase();
  if (['false', 'no', '0'].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return 1;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const entries = text.split(',').map((e) => e.trim());
  if (entries.every(isAddressOrRange)) return entries;
  ctx.addIssue({ code: 'custom', message: MESSAGE });
  return z.NEVER;
});

/**
 * The setting as Fastify takes it. Fastify trusts no hop for a bare number (it cannot check the
 * nearest peer), so a hop count is a function trusting the nearest N addresses: the socket's, then
 * the last N - 1 of `X-Forwarded-For`.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
