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

/** Addresses no outbound connection goes to unless opened: this host, private networks, link-local, shared, reserved. */
const INTERNAL: readonly AddressRange[] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const familyOf = (address: string) => (net.isIPv4(address) ? 'ipv4' : 'ipv6');

function blockList(ranges: readonly AddressRange[]): net.BlockList {
  const list = new net.BlockList();
  for (const [address, prefix, family] of ranges) list.addSubnet(address, prefix, family);
  return list;
}

const internal = blockList(INTERNAL);

/**
 * Whether an outbound connection may go to an address: public, or in one of the internal ranges
 * (CIDR texts) an operator opened.
 */
export function addressCheck(openedRanges: readonly string[]): (address: string) => boolean {
  const opened = blockList(openedRanges.map(parseRange).filter((r): r is AddressRange => r !== null));
  return (address) => {
    const family = familyOf(address);
    return !internal.check(address, family) || opened.check(address, family);
  };
}
