import { Readable } from 'node:stream';
import {
  ACTIVITY_EXPORT_MAX,
  ACTIVITY_KIND_LABELS,
  type ActivityEntry,
  type ActivityKind,
  type ActivityPage,
  type ActivityQuery,
  activityQuerySchema,
  CLOSED_DOCUMENT,
} from '@gdb/shared/activity/activity.schemas';
import { isSuperAdmin } from '@gdb/shared/users/user-scope';
import type { VersionKind } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { type ActivityFilters, type ActivityRow, activityRepo } from './activity.repo.ts';

/** One change to record: who did it, to which document, upload or user, and what changed. */
export interface ActivityInput {
  kind: ActivityKind;
  actor: { id: string | null; name: string };
  document?: { kind: string; id: string; familyId: string; name: string; version: number } | null;
  uploadId?: string | null;
  pipelineId?: string | null;
  targetUser?: { id: string; name: string } | null;
  details?: Record<string, unknown>;
}

/** Which of these documents the reader's badges open (the version engine's check). */
type OpenDocuments = (auth: AuthContext, docs: readonly { _id: string; kind: VersionKind }[]) => Promise<Set<string>>;

function entryOf(row: ActivityRow, open: boolean): ActivityEntry {
  const details = typeof row.details === 'string' ? (JSON.parse(row.details) as Record<string, unknown>) : row.details;
  return {
    _id: row.id,
    at: new Date(row.at).toISOString(),
    actor: row.actor_name,
    kind: row.kind as ActivityKind,
    documentKind: row.document_kind,
    documentId: open ? row.document_id : null,
    documentName: row.document_name === null ? null : open ? row.document_name : CLOSED_DOCUMENT,
    documentVersion: open ? row.document_version : null,
    uploadId: open ? row.upload_id : null,
    targetUser: typeof details.targetUserName === 'string' ? details.targetUserName : null,
    details: open ? details : {},
  };
}

const CSV_HEADER = ['When', 'Who', 'What', 'Document kind', 'Document', 'Version', 'Upload', 'User', 'Details'];
const csvField = (v: string) => {
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const csvLine = (cells: readonly (string | number | null)[]) =>
  `${cells.map((c) => csvField(c === null ? '' : String(c))).join(',')}\n`;

/**
 * The activity record (docs/product.md, the Activity page): who changed which cell of which
 * upload, who saved, locked, versioned, updated or deleted which document, who changed whose roles
 * or badges. An administrator reads the documents their badges open; the others are never named.
 */
export function activityService(ctx: AppContext, deps: { openDocuments: () => OpenDocuments }) {
  const repo = activityRepo(ctx.db.kysely);

  /** The entries as this reader sees them: a document their badges close is not named, nor its details. */
  async function seen(auth: AuthContext, rows: readonly ActivityRow[]): Promise<{ entry: ActivityEntry; open: boolean }[]> {
    if (isSuperAdmin(auth.roles)) return rows.map((r) => ({ entry: entryOf(r, true), open: true }));
    const docs = rows
      .filter((r) => r.document_id && r.document_kind)
      .map((r) => ({ _id: r.document_id as string, kind: r.document_kind as VersionKind }));
    const open = docs.length > 0 ? await deps.openDocuments()(auth, docs) : new Set<string>();
    return rows.map((r) => {
      const isOpen = r.document_id === null || open.has(r.document_id);
      return { entry: entryOf(r, isOpen), open: isOpen };
    });
  }

  function filtersOf(query: ActivityQuery) {
    const q = activityQuerySchema.parse(query);
    const filters: ActivityFilters = {
      actor: q.actor,
      kind: q.kind,
      document: q.document,
      uploadId: q.uploadId,
      from: q.from ? new Date(q.from) : undefined,
      to: q.to ? new Date(q.to) : undefined,
    };
    return { q, filters };
  }

  /** Every entry the filters keep that the reader sees, up to the export's limit: a closed document found by its name is left out. */
  async function allSeen(auth: AuthContext, filters: ActivityFilters): Promise<ActivityEntry[]> {
    const rows = await repo.page(filters, 0, ACTIVITY_EXPORT_MAX);
    const seenRows = await seen(auth, rows);
    return seenRows.filter((s) => s.open || !filters.document).map((s) => s.entry);
  }

  return {
    /** Records changes; a failure is logged, never the caller's. */
    async record(inputs: readonly ActivityInput[]): Promise<void> {
      try {
        await repo.insert(
          inputs.map((i) => ({
            id: newId(),
            actor_id: i.actor.id,
            actor_name: i.actor.name,
            kind: i.kind,
            document_kind: i.document?.kind ?? null,
            document_id: i.document?.id ?? null,
            family_id: i.document?.familyId ?? null,
            document_name: i.document?.name ?? null,
            document_version: i.document?.version ?? null,
            upload_id: i.uploadId ?? null,
            pipeline_id: i.pipelineId ?? null,
            target_user_id: i.targetUser?.id ?? null,
            details: JSON.stringify({ ...i.details, ...(i.targetUser ? { targetUserName: i.targetUser.name } : {}) }),
          })),
        );
      } catch (err) {
        ctx.log.error({ err }, 'activity not recorded');
      }
    },

    /** A page of the record, newest first. */
    async page(auth: AuthContext, query: ActivityQuery): Promise<ActivityPage> {
      const { q, filters } = filtersOf(query);
      // A search by name must not count the documents the reader cannot read: those are filtered here.
      if (filters.document && !isSuperAdmin(auth.roles)) {
        const all = await allSeen(auth, filters);
        return { total: all.length, entries: all.slice(q.offset, q.offset + q.limit) };
      }
      const [total, rows] = await Promise.all([repo.count(filters), repo.page(filters, q.offset, q.limit)]);
      return { total, entries: (await seen(auth, rows)).map((s) => s.entry) };
    },

    /** The record the filters keep as a CSV file (newest first, at most the export's limit), streamed. */
    async exportCsv(auth: AuthContext, query: ActivityQuery): Promise<Readable> {
      const { filters } = filtersOf(query);
      const entries = await allSeen(auth, filters);
      function* lines(): Generator<string> {
        yield csvLine(CSV_HEADER);
        for (const e of entries) {
          yield csvLine([
            e.at,
            e.actor,
            ACTIVITY_KIND_LABELS[e.kind],
            e.documentKind,
            e.documentName,
            e.documentVersion,
            e.uploadId,
            e.targetUser,
            Object.keys(e.details).length > 0 ? JSON.stringify(e.details) : '',
          ]);
        }
      }
      return Readable.from(lines());
    },
  };
}

export type ActivityService = ReturnType<typeof activityService>;
