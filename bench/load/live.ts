// The load bench's live-channel client: a user's view of documents as the wizard and the logbook
// follow them (socket.io, a collection filtered). The user knows from it when an upload is
// checked, when the pipeline is free to run again and when their own import has ended, without
// asking.
import { LIVE_PATH } from '@gdb/shared/live/live.schemas';
import { decode } from '@msgpack/msgpack';
import { io } from 'socket.io-client';

/** What the channel says of a document. */
interface LiveState {
  _id: string;
  state?: string;
  status?: string;
}

const ACTIVE = new Set(['pending', 'busy', 'progress', 'sequential']);
const ENDED = new Set(['done', 'failed', 'aborted']);

function docsOf(hex: unknown): LiveState[] {
  if (typeof hex !== 'string') return [];
  const envelope = decode(Buffer.from(hex, 'hex')) as { data?: unknown };
  const data = envelope.data;
  if (Array.isArray(data)) return data as LiveState[];
  const change = data as { documentKey?: { _id: string }; fullDocument?: LiveState | null } | undefined;
  if (change?.fullDocument) return [change.fullDocument];
  return change?.documentKey ? [{ _id: change.documentKey._id, state: 'deleted', status: 'deleted' }] : [];
}

/**
 * Follows the documents of a collection that match `filter` for one user; answers once the
 * subscription's first documents arrived. `field` is the state followed (imports' `state`,
 * uploads' `status`).
 */
export async function followLive(
  baseUrl: string,
  token: string,
  collectionName: 'imports' | 'uploads',
  filter: Record<string, unknown>,
) {
  const field = collectionName === 'uploads' ? 'status' : 'state';
  const states = new Map<string, string>();
  let listeners: (() => void)[] = [];
  const socket = io(baseUrl, { path: LIVE_PATH, transports: ['websocket'], auth: { token }, forceNew: true });
  const heard = (hex: unknown) => {
    for (const doc of docsOf(hex)) states.set(doc._id, String(doc[field] ?? ''));
    const waiting = listeners;
    listeners = [];
    for (const listener of waiting) listener();
  };
  const initialised = new Promise<void>((resolve, reject) => {
    socket.once('init', () => resolve());
    socket.once('connect_error', reject);
    socket.once('exception', (e: { message?: string }) => reject(new Error(e.message ?? 'live exception')));
  });
  socket.on('init', heard);
  socket.on('change', heard);
  socket.emit('subscribe', { collectionName, filter, subscriptionId: collectionName, token });
  await initialised;

  /** Resolves at the next message, or after `ms`. */
  const next = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      listeners.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  return {
    states,
    /** Resolves once `done()` holds of what was heard, or at `deadline`; answers whether it held. */
    async until(done: () => boolean, deadline: number): Promise<boolean> {
      while (!done() && Date.now() < deadline) await next(Math.min(1000, deadline - Date.now()));
      return done();
    },
    close: () => socket.close(),
  };
}

/** Follows the imports of a pipeline for one user; answers once the subscription's first documents arrived. */
export async function followPipelineImports(baseUrl: string, token: string, pipelineId: string) {
  const live = await followLive(baseUrl, token, 'imports', { pipeline: pipelineId });
  const busy = () => [...live.states.values()].some((s) => ACTIVE.has(s));
  return {
    busy,
    /** Resolves once no import of the pipeline is pending or running, as heard, or after `maxMs`. */
    async idle(maxMs: number): Promise<void> {
      await live.until(() => !busy(), Date.now() + maxMs);
    },
    /** The import's last state heard once it has ended, or its state at `deadline`. */
    async ended(importId: string, deadline: number): Promise<string> {
      await live.until(() => ENDED.has(live.states.get(importId) ?? ''), deadline);
      return live.states.get(importId) ?? 'unknown';
    },
    close: live.close,
  };
}

export type PipelineImports = Awaited<ReturnType<typeof followPipelineImports>>;
