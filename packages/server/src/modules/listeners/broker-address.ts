import dns from 'node:dns/promises';
import net from 'node:net';
import { LISTENER_MESSAGES, LISTENER_SCHEMES, type ListenerKind } from '@gdb/shared/listeners/listener.schemas';
import { addressCheck } from '../../platform/cidr.ts';
import { invalid } from '../../platform/http/errors.ts';

/**
 * A listener's connection URL as this server may use it: a scheme of its broker kind, no
 * credentials in it (they have their own fields, the password stored encrypted), and a host that
 * resolves only to public addresses or to internal ranges an operator opened (LISTENER_PRIVATE_RANGES):
 * a pipeline's author must not make the server reach what only it can reach. Throws the refusal (422).
 */
export async function checkBrokerUrl(kind: ListenerKind, url: string, privateRanges: readonly string[]): Promise<URL> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw invalid(LISTENER_MESSAGES.badScheme, [{ path: 'url', message: 'not a URL' }]);
  }
  if (!LISTENER_SCHEMES[kind].includes(target.protocol)) {
    throw invalid(LISTENER_MESSAGES.badScheme, [{ path: 'url', message: `use ${LISTENER_SCHEMES[kind].join(' or ')}` }]);
  }
  if (target.username || target.password) {
    throw invalid(LISTENER_MESSAGES.credentialsInUrl, [{ path: 'url', message: 'credentials' }]);
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw invalid(LISTENER_MESSAGES.hostUnknown, [{ path: 'url', message: 'no host' }]);
  const allowed = addressCheck(privateRanges);
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw invalid(LISTENER_MESSAGES.hostUnknown, [{ path: 'url', message: host }]);
    }
  }
  if (addresses.length === 0 || addresses.some((a) => !allowed(a))) {
    throw invalid(LISTENER_MESSAGES.hostRefused, [{ path: 'url', message: host }]);
  }
  return target;
}
