import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { listenerSource } from './listener-source.ts';
import type { ListenerRow, listenersRepo } from './listeners.repo.ts';

/** One message as a broker delivered it, acknowledged only once it is stored (or dropped as a duplicate). */
export interface Delivery {
  /** Its id for dropping redeliveries (AMQP messageId, MQTT `msgid` user property, NATS Nats-Msg-Id or JetStream sequence), if any. */
  id: string | undefined;
  body: Uint8Array;
  ack(): void;
  /** Hands it back to the broker now, unstored (for those that can; others deliver it again once the connection ends). */
  release?(): void;
}

/** What storing a batch reaches in other modules (wired at start-up). */
export interface BatchDeps {
  repo: ReturnType<typeof listenersRepo>;
  pipelines: { stored(id: string): Promise<PipelineView | undefined> };
  /** The listener's publisher as they are now, when they may still change its pipeline; else undefined. */
  runner(userId: string | null, pipeline: PipelineView): Promise<AuthContext | undefined>;
  uploads: {
    receiveBatch(
      auth: AuthContext,
      pipeline: PipelineView,
      batch: { filename: string; bytes: Uint8Array; keepInvalid: boolean },
    ): Promise<{ uploadId: string | undefined; valid: boolean; problemRows: number[] | null }>;
  };
}

/** Why a batch could not be stored: its messages stay unacknowledged, the broker delivers them again. */
class BatchError extends Error {}

/** Rounds of taking the refused messages out of a batch before all of the rest is taken as refused. */
const SPLIT_ROUNDS = 4;

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The rows of a message: one JSON object, or an array of them; null when it is neither. */
export function rowsOf(body: Uint8Array): Row[] | null {
  if (body.length > MAX_FILE_BYTES / 2) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return null;
  }
  if (isRow(value)) return [value];
  return Array.isArray(value) && value.length > 0 && value.every(isRow) ? value : null;
}

interface Parsed {
  delivery: Delivery;
  rows: Row[] | null;
}

/**
 * The ids of messages in batches being stored on this connection's listener, with the other
 * deliveries of the same id that wait for that batch: acknowledged with it once it is stored, left
 * to the broker if it fails.
 */
export type InFlight = Map<string, Delivery[]>;

/** Takes the deliveries whose id no batch being stored holds (the first of each id); the others wait for theirs. */
function claim(inFlight: InFlight, deliveries: readonly Delivery[]): { mine: Delivery[]; ids: string[] } {
  const mine: Delivery[] = [];
  const ids: string[] = [];
  for (const d of deliveries) {
    if (d.id === undefined) {
      mine.push(d);
      continue;
    }
    const waiting = inFlight.get(d.id);
    if (waiting) {
      waiting.push(d);
      continue;
    }
    inFlight.set(d.id, []);
    ids.push(d.id);
    mine.push(d);
  }
  return { mine, ids };
}

/** The deliveries not stored before: those whose id the listener has not recorded. */
async function fresh(deps: BatchDeps, listener: ListenerRow, deliveries: readonly Delivery[]): Promise<Delivery[]> {
  const seen = await deps.repo.seen(
    listener.id,
    deliveries.flatMap((d) => d.id ?? []),
  );
  return deliveries.filter((d) => d.id === undefined || !seen.has(d.id));
}

/** The messages of `good` whose rows the check named (row numbers from 1, in the order of the file). */
function refused(good: readonly Parsed[], problemRows: readonly number[]): Set<Parsed> {
  const bad = new Set<Parsed>();
  const rows = new Set(problemRows);
  let first = 1;
  for (const p of good) {
    const count = p.rows?.length ?? 0;
    for (let n = first; n < first + count; n += 1) if (rows.has(n)) bad.add(p);
    first += count;
  }
  return bad;
}

const bytesOfRows = (messages: readonly Parsed[]) => Buffer.from(JSON.stringify(messages.flatMap((m) => m.rows ?? [])));

/**
 * Stores the valid messages as one upload: the check's refused rows take their messages out,
 * a few rounds at most; answers the upload (if any) and the messages refused.
 */
async function storeValid(deps: BatchDeps, auth: AuthContext, pipeline: PipelineView, good: Parsed[], filename: string) {
  let rest = good;
  const poison: Parsed[] = [];
  for (let round = 0; rest.length > 0; round += 1) {
    const keepInvalid = false;
    const answer = await deps.uploads.receiveBatch(auth, pipeline, { filename, bytes: bytesOfRows(rest), keepInvalid });
    if (answer.valid) return { uploadId: answer.uploadId, poison };
    const bad = answer.problemRows && round < SPLIT_ROUNDS ? refused(rest, answer.problemRows) : new Set(rest);
    if (bad.size === 0) for (const p of rest) bad.add(p);
    poison.push(...rest.filter((p) => bad.has(p)));
    rest = rest.filter((p) => !bad.has(p));
  }
  return { uploadId: undefined, poison };
}

/** The refused messages as they came, one per line: stored as an invalid upload whose check says why. */
const bytesOfPoison = (poison: readonly Parsed[]) =>
  Buffer.concat(
    poison.map((p) =>
      Buffer.concat([
        p.delivery.body.length > MAX_FILE_BYTES / 2
          ? Buffer.from(`message of ${p.delivery.body.length} bytes, over the limit`)
          : Buffer.from(p.delivery.body),
        Buffer.from('\n'),
      ]),
    ),
  );

/**
 * Stores a batch of a listener's messages as uploads of its listener data source, acting for its
 * publisher: the valid messages as one upload, the messages not valid for the data model (or not
 * JSON rows) as one invalid upload with its check's log lines; a message already stored (same id)
 * is dropped, and one whose id another batch being stored holds waits for that batch. Every
 * message is acknowledged once this is done, never before: a failure leaves them all to the broker
 * (BatchError). Answers the upload a run should take, if any.
 */
export async function storeBatch(
  deps: BatchDeps,
  listener: ListenerRow,
  deliveries: readonly Delivery[],
  inFlight: InFlight,
): Promise<{ uploadId: string | undefined; pipeline: PipelineView; auth: AuthContext }> {
  // Claimed before anything is awaited: a batch started after this one sees these ids in flight
  // until they are recorded, and recorded after.
  const { mine, ids } = claim(inFlight, deliveries);
  let stored = false;
  try {
    const answer = await storeClaimed(deps, listener, mine);
    stored = true;
    return answer;
  } finally {
    for (const id of ids) {
      const others = inFlight.get(id) ?? [];
      inFlight.delete(id);
      if (stored) for (const d of others) d.ack();
    }
  }
}

async function storeClaimed(
  deps: BatchDeps,
  listener: ListenerRow,
  deliveries: readonly Delivery[],
): Promise<{ uploadId: string | undefined; pipeline: PipelineView; auth: AuthContext }> {
  const pipeline = await deps.pipelines.stored(listener.pipeline_id);
  const source = listenerSource(pipeline);
  if (!pipeline || !source) throw new BatchError('The pipeline of this listener is gone or has no listener data source.');
  const auth = await deps.runner(listener.updated_by, pipeline);
  if (!auth) throw new BatchError('The publisher of this listener may no longer run its pipeline: it must be published again.');
  const messages: Parsed[] = (await fresh(deps, listener, deliveries)).map((d) => ({ delivery: d, rows: rowsOf(d.body) }));
  const filename = `${source.dataSubKind}.json`;
  const good = messages.filter((m) => m.rows !== null);
  const valid: { uploadId: string | undefined; poison: Parsed[] } =
    good.length > 0 ? await storeValid(deps, auth, pipeline, good, filename) : { uploadId: undefined, poison: [] };
  const { uploadId } = valid;
  const poison = [...valid.poison, ...messages.filter((m) => m.rows === null)];
  if (poison.length > 0) {
    const bytes = bytesOfPoison(poison);
    await deps.uploads.receiveBatch(auth, pipeline, { filename: `${source.dataSubKind}-refused.json`, bytes, keepInvalid: true });
  }
  await deps.repo.remember(
    listener.id,
    messages.flatMap((m) => m.delivery.id ?? []),
  );
  for (const d of deliveries) d.ack();
  return { uploadId, pipeline, auth };
}
