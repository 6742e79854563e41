import net from 'node:net';

/** An address range as `net.BlockList` takes it. */
export type AddressRange = readonly [address: string, prefix: number, family: 'ipv4' | 'ipv6'];

/** A CIDR range (`10.20.0.0/16`, `fd00::/8`), or null when the text is not one. */
export function parseRange(text: string): AddressRange | null {
  const [address = '', prefixText = '', ...rest] = text.trim().split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0 || !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > (version === 4 ? 32 : 128)) return null;
  return [address, prefix, version === 4 ? 'ipv4' : 'ipv6'];
}
