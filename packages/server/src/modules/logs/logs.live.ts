import type { NormalFilter } from '@gdb/shared/live/filter';
import { LOG_LEVELS } from '@gdb/shared/live/live.schemas';
import { z } from 'zod';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { type CollectionDef, type LiveDoc, rowOf, textOrNull } from '../../platform/live/collections.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { type LogsService, toLiveLog } from './logs.service.ts';

const logRowSchema = z.object({
  id: z.union([z.number(), z.string()]),
  log_date: z.string(),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  data_sub_kind: z.string().nullable(),
  upload_id: z.string().nullable(),
  import_id: z.string().nullable(),
});

/** The pipelines of the uploads or imports named; undefined when one of them does not exist. */
type PipelinesOf = (ids: readonly string[]) => Promise<string[] | undefined>;

/** Uploads and imports remembered with their pipeline, at most. */
const OWNERS_KEPT = 10_000;

/**
 * The pipeline of one upload or import ('' when it is unknown, which no badge opens), remembered
 * once found: an upload or an import never moves to another pipeline.
 */
function ownerOf(pipelinesOf: PipelinesOf) {
  const known = new Map<string, string>();
  return async (id: string): Promise<string> => {
    const hit = known.get(id);
    if (hit !== undefined) return hit;
    const [owner] = (await pipelinesOf([id])) ?? [];
    if (!owner) return '';
    if (known.size >= OWNERS_KEPT) known.clear();
    known.set(id, owner);
    return owner;
  };
}

/** How long a caller's verdict on a pipeline is kept for the lines that follow: a badge change reaches running subscriptions within it. */
const VERDICT_MS = 1_000;

/**
 * Which log lines a caller may be sent: those whose upload and import (each it names) belong to
 * pipelines the caller's badges open, checked on every line found, sent first or sent as it changes
 * (a subscription outlives the check of its filter: badges change, an upload named may come later).
 * The verdicts are kept a moment per caller, so a run writing thousands of lines asks once.
 */
function visibleLines(pipelines: Pick<PipelinesService, 'liveVisible'>, owners: { uploads: PipelinesOf; imports: PipelinesOf }) {
  const ofUpload = ownerOf(owners.uploads);
  const ofImport = ownerOf(owners.imports);
  const readable = pipelines.liveVisible((id: string) => id);
  const verdicts = new WeakMap<AuthContext, Map<string, { open: boolean; until: number }>>();
  const openTo = async (caller: AuthContext, ids: readonly string[]) => {
    const now = Date.now();
    let known = verdicts.get(caller);
    if (!known) {
      known = new Map();
      verdicts.set(caller, known);
    }
    const kept = known;
    const stale = ids.filter((id) => (kept.get(id)?.until ?? 0) <= now);
    if (stale.length > 0) {
      const open = new Set(await readable(caller, stale));
      for (const id of stale) kept.set(id, { open: open.has(id), until: now + VERDICT_MS });
    }
    return (id: string) => kept.get(id)?.open === true;
  };
  return async (caller: AuthContext, docs: readonly LiveDoc[]): Promise<LiveDoc[]> => {
    if (caller.roles.includes('super-admin') || docs.length === 0) return [...docs];
    const found = new Map<string, string>();
    const owner = async (id: unknown, of: (id: string) => Promise<string>, prefix: string) => {
      if (typeof id !== 'string' || !id) return [];
      let at = found.get(prefix + id);
      if (at === undefined) {
        at = await of(id);
        found.set(prefix + id, at);
      }
      return [at];
    };
    const lines: [LiveDoc, string[]][] = [];
    for (const d of docs)
      lines.push([d, [...(await owner(d.uploadId, ofUpload, 'u')), ...(await owner(d.importId, ofImport, 'i'))]]);
    const isOpen = await openTo(caller, [...new Set(found.values())]);
    return lines.filter(([, ids]) => ids.length > 0 && ids.every(isOpen)).map(([d]) => d);
  };
}

/** The live `logs` collection: filtered by `uploadId` and/or `importId` (one is required), readable where those are, each line sent only where its pipelines are open to the caller. */
export function logsLiveCollection(
  logs: LogsService,
  pipelines: Pick<PipelinesService, 'liveReadRule' | 'liveVisible'>,
  owners: { uploads: PipelinesOf; imports: PipelinesOf },
): CollectionDef {
  const pipelinesOf = async (f: NormalFilter) => {
    if (!f.uploadId && !f.importId) return undefined;
    const a = f.uploadId ? await owners.uploads(f.uploadId) : [];
    const b = f.importId ? await owners.imports(f.importId) : [];
    return a && b && [...new Set([...a, ...b])];
  };
  return {
    name: 'logs',
    uuidKeys: ['uploadId', 'importId'],
    requiresFilter: true,
    read: (f, limit) => logs.find({ uploadIds: f.uploadId, importIds: f.importId }, limit),
    byId: async (id) => (/^\d+$/.test(id) ? (await logs.byIds([Number(id)]))[0] : undefined),
    fromRow: (row) => {
      const r = rowOf(logRowSchema, row);
      return r && toLiveLog(r);
    },
    fromKeys: (id, keys) => ({ _id: id, uploadId: textOrNull(keys.upload_id), importId: textOrNull(keys.import_id) }),
    mayRead: pipelines.liveReadRule(pipelinesOf),
    visible: visibleLines(pipelines, owners),
  };
}
