import { Encoder } from '@msgpack/msgpack';

const encoder = new Encoder({ ignoreUndefined: true });

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Hex text of the MessagePack encoding of a value (undefined fields are left out). */
export function packHex(value: unknown): string {
  // The shared reference is read at once, before the next encoding reuses the buffer.
  return hexOf(encoder.encodeSharedRef(value));
}

const MAP_OF_TWO = '82';
const SUBSCRIPTION_ID_KEY = packHex('subscriptionId');
const DATA_KEY = packHex('data');

/**
 * Hex of the MessagePack encoding of `{subscriptionId, data}` up to the data: followed by the
 * data's `packHex`, it is the whole envelope. A change sent to many subscriptions is encoded once.
 */
export function envelopePrefixHex(subscriptionId: string): string {
  return MAP_OF_TWO + SUBSCRIPTION_ID_KEY + packHex(subscriptionId) + DATA_KEY;
}

/** Hex of the MessagePack encoding of `{subscriptionId, data}`, from the data's `packHex`. */
export function envelopeHex(subscriptionId: string, dataHex: string): string {
  return envelopePrefixHex(subscriptionId) + dataHex;
}
