// The load bench's live-channel client: a user's view of one pipeline's imports, as the wizard
// and the logbook follow them (socket.io, `imports` filtered by pipeline). The user knows from it
// when the pipeline is free to run again and when their own import has ended, without asking.
import { LIVE_PATH } from '@gdb/shared/live/live.schemas';
import { decode } from '@msgpack/msgpack';
import { io } from 'socket.io-client';

/** What the channel says of an import. */
interface LiveImportState {
  _id: string;
  state: string;
}

const ACTIVE = new Set(['pending', 'busy', 'progress', 'sequential']);
const ENDED = new Set(['done', 'failed', 'aborted']);

function docsOf(hex: unknown): LiveImportState[] {
  if (typeof hex !== 'string') return [];
  const envelope = decode(Buffer.from(hex, 'hex')) as { data?: unknown };
  const data = envelope.data;
  if (Array.isArray(data)) return data as LiveImportState[];
  const change = data as { documentKey?: { _id: string }; fullDocument?: LiveImportState | null } | undefined;
  if (change?.fullDocument) return [change.fullDocument];
  return change?.documentKey ? [{ _id: change.documentKey._id, state: 'deleted' }] : [];
}

/** Follows the imports of a pipeline for one user; answers once the subscription's first documents arrived. */
export async function followPipelineImports(baseUrl: string, token: string, pipelineId: string) {
  const states = new Map<string, string>();
  let listeners: (() => void)[] = [];
  const socket = io(baseUrl, { path: LIVE_PATH, transports: ['websocket'], auth: { token }, forceNew: true });
  const heard = (hex: unknown) => {
    for (const doc of docsOf(hex)) states.set(doc._id, doc.state);
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
  socket.emit('subscribe', { collectionName: 'imports', filter: { pipeline: pipelineId }, subscriptionId: 'imports', token });
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
  const busy = () => [...states.values()].some((s) => ACTIVE.has(s));

  return {
    busy,
    /** Resolves once no import of the pipeline is pending or running, as heard, or after `maxMs`. */
    async idle(maxMs: number): Promise<void> {
      const until = Date.now() + maxMs;
      while (busy() && Date.now() < until) await next(until - Date.now());
    },
    /** The import's last state heard once it has ended, or its state at `deadline`. */
    async ended(importId: string, deadline: number): Promise<string> {
      while (!ENDED.has(states.get(importId) ?? '') && Date.now() < deadline) await next(Math.min(1000, deadline - Date.now()));
      return states.get(importId) ?? 'unknown';
    },
    close: () => socket.close(),
  };
}

export type PipelineImports = Awaited<ReturnType<typeof followPipelineImports>>;
