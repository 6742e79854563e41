import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** The ids a live read selects: a missing list means no condition on that column. */
export interface IdSelection {
  ids?: readonly string[] | undefined;
  pipelineIds?: readonly string[] | undefined;
}

/** The SQL the live hub runs itself: uploads and imports as documents, the pipelines they belong to, open sessions. */
export function liveRepo(k: Kysely<Database>) {
  return {
    /** The newest `limit` uploads of the selection, newest first. */
    uploads: (sel: IdSelection, limit: number) => {
      let q = k.selectFrom('uploads').selectAll();
      if (sel.ids) q = q.where('id', 'in', [...sel.ids]);
      if (sel.pipelineIds) q = q.where('pipeline_id', 'in', [...sel.pipelineIds]);
      return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    /** The newest `limit` imports of the selection, newest first. */
    imports: (sel: IdSelection, limit: number) => {
      let q = k.selectFrom('imports').selectAll();
      if (sel.ids) q = q.where('id', 'in', [...sel.ids]);
      if (sel.pipelineIds) q = q.where('pipeline_id', 'in', [...sel.pipelineIds]);
      return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    uploadPipelines: (ids: readonly string[]) =>
      k
        .selectFrom('uploads')
        .select(['id', 'pipeline_id'])
        .where('id', 'in', [...ids])
        .execute(),
    importPipelines: (ids: readonly string[]) =>
      k
        .selectFrom('imports')
        .select(['id', 'pipeline_id'])
        .where('id', 'in', [...ids])
        .execute(),
    /** Which of these sessions are still open: not revoked, not expired, their user active. */
    openSessions: async (sessionIds: readonly string[]) => {
      if (sessionIds.length === 0) return new Set<string>();
      const rows = await k
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select('s.id')
        .where('s.id', 'in', [...sessionIds])
        .where('s.revoked_at', 'is', null)
        .where('s.expires_at', '>', new Date())
        .where('u.is_active', '=', true)
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
