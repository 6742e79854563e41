// Fetching a real-time source: only from the hosts an operator lists (REALTIME_SOURCE_HOSTS, none
// by default), and never from a loopback, private, link-local or otherwise internal address unless
// the operator opens that range (REALTIME_SOURCE_PRIVATE_RANGES): a pipeline's author must not make
// the server reach what only it can reach (docs/decisions.md, "Real-time sources: listed hosts, public addresses").
import dns, { type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { CODES } from '@gdb/shared/api/envelope';
import { MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import { addressCheck } from '../../platform/cidr.ts';
import { errorMessage } from '../../platform/error-message.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';
import { tooLarge } from './multipart-parts.ts';

/** Where real-time sources may be fetched from (the settings). */
export interface RealtimeSourcePolicy {
  /** Host names (lower case) a source's URL may name. */
  hosts: readonly string[];
  /** Internal ranges (CIDR) the operator opens; every other internal address is refused. */
  privateRanges: readonly string[];
}

const refusedAddress = (dataSubKind: string, host: string) =>
  invalid(`Real-time source ${dataSubKind}: host ${host} is a loopback, private or internal address.`);

/** What the lookup fails with for a name that resolves to an address not allowed. */
class AddressRefused extends Error {}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup that fails when the name resolves to an address not allowed: the connection goes to what was checked. */
function checkedLookup(addressAllowed: (address: string) => boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || list.some((a) => !addressAllowed(a.address))) {
        return callback(new AddressRefused(hostname), []);
      }
      if (options.all) return callback(null, list);
      const [first] = list;
      return callback(null, first?.address ?? '', first?.family);
    });
  };
}

/** The host of a source's URL if the policy allows it (its name listed, an address literal allowed); throws the refusal. */
function assertHostAllowed(
  target: URL,
  dataSubKind: string,
  policy: RealtimeSourcePolicy,
  addressAllowed: (address: string) => boolean,
): void {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw invalid(`Real-time source ${dataSubKind}: only http and https are fetched.`);
  }
  const host = target.hostname.toLowerCase();
  if (!policy.hosts.includes(host)) throw invalid(`Real-time source ${dataSubKind}: host ${target.hostname} is not allowed.`);
  const literal = host.replace(/^\[|\]$/g, '');
  if (net.isIP(literal) && !addressAllowed(literal)) throw refusedAddress(dataSubKind, target.hostname);
}

/** One GET, no redirect followed, no connection kept; answers the response once its head arrived. */
function get(target: URL, lookup: ReturnType<typeof checkedLookup>, signal: AbortSignal): Promise<IncomingMessage> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(target, { method: 'GET', agent: false, lookup, signal }, resolve);
    req.on('error', reject);
    req.end();
  });
}

async function bodyOf(res: IncomingMessage): Promise<Buffer> {
  const declared = Number(res.headers['content-length'] ?? '0');
  if (declared > MAX_FILE_BYTES) {
    res.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    const bytes: Buffer = chunk;
    size += bytes.length;
    if (size > MAX_FILE_BYTES) {
      res.destroy();
      throw tooLarge();
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** Fetches a real-time source the policy allows, with a time limit and the upload size limit. */
export async function fetchRealtimeSource(
  url: string,
  dataSubKind: string,
  policy: RealtimeSourcePolicy,
): Promise<{ bytes: Buffer; contentType: string | undefined; target: URL }> {
  const target = new URL(url);
  const allowed = addressCheck(policy.privateRanges);
  assertHostAllowed(target, dataSubKind, policy, allowed);
  try {
    const res = await get(target, checkedLookup(allowed), AbortSignal.timeout(30_000));
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      res.destroy();
      throw new AppError(502, CODES.badRequest, `Real-time source ${dataSubKind} answered ${status}.`);
    }
    return { bytes: await bodyOf(res), contentType: res.headers['content-type'], target };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof AddressRefused) throw refusedAddress(dataSubKind, target.hostname);
    throw new AppError(502, CODES.badRequest, `Real-time source ${dataSubKind} could not be fetched: ${errorMessage(error)}`);
  }
}
