import { LIVE_OPERATIONS, type LiveChange, type LiveOperation } from '@gdb/shared/live/live.schemas';
import { isRecord } from '@gdb/shared/values/is-record';
import { decode } from '@msgpack/msgpack';

/** A document as the channel sends it: an `_id` and whatever fields the projection kept. */
export type LiveDoc = { _id: string } & Record<string, unknown>;

function isLiveDoc(value: unknown): value is LiveDoc {
  return isRecord(value) && typeof value._id === 'string';
}

/** Decodes the hex MessagePack text of init, change and find into `{subscriptionId, data}`. */
export function decodeEnvelope(hex: unknown): { subscriptionId: string; data: unknown } {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) throw new Error('Live data is not hex text');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const value: unknown = decode(bytes);
  if (!isRecord(value) || typeof value.subscriptionId !== 'string' || !('data' in value)) {
    throw new Error('Live data without subscriptionId and data');
  }
  return { subscriptionId: value.subscriptionId, data: value.data };
}

/** The documents of an init or a find; anything that is not a document is left out. */
export function docsOf(data: unknown): LiveDoc[] {
  return Array.isArray(data) ? data.filter(isLiveDoc) : [];
}

function isOperation(value: unknown): value is LiveOperation {
  return typeof value === 'string' && (LIVE_OPERATIONS as readonly string[]).includes(value);
}

/** The change a `change` event carries; an operation other than insert, update or delete is refused. */
export function changeOf(data: unknown): LiveChange<LiveDoc> {
  if (!isRecord(data)) throw new Error('Live change without data');
  if (!isOperation(data.operationType)) throw new Error('Unsupported operationType');
  const key = data.documentKey;
  const id =
    isRecord(key) && typeof key._id === 'string' ? key._id : isLiveDoc(data.fullDocument) ? data.fullDocument._id : undefined;
  if (id === undefined) throw new Error('Live change without documentKey');
  return {
    operationType: data.operationType,
    documentKey: { _id: id },
    fullDocument: isLiveDoc(data.fullDocument) ? data.fullDocument : null,
  };
}
