import { type Insertable, type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { ActivityTable, Database } from '../../platform/db/tables.ts';

export type ActivityRow = Selectable<ActivityTable>;

/** The filters of the activity record as SQL reads them. */
export interface ActivityFilters {
  actor?: string | undefined;
  kind?: string | undefined;
  document?: string | undefined;
  uploadId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A text searched for as a part of a value: its wildcards taken as themselves. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

type Query<O> = SelectQueryBuilder<Database, 'activity', O>;

function filtered<O>(q: Query<O>, f: ActivityFilters): Query<O> {
  let out = q;
  if (f.actor) out = out.where('actor_name', 'ilike', containing(f.actor));
  if (f.kind) out = out.where('kind', '=', f.kind);
  if (f.uploadId) out = out.where('upload_id', '=', f.uploadId);
  if (f.from) out = out.where('at', '>=', f.from);
  if (f.to) out = out.where('at', '<=', f.to);
  const document = f.document;
  if (document) {
    out = out.where((eb) =>
      UUID.test(document)
        ? eb.or([eb('document_id', '=', document), eb('family_id', '=', document)])
        : eb('document_name', 'ilike', containing(document)),
    );
  }
  return out;
}

/** SQL for the activity record: the module's own table. */
export function activityRepo(k: Kysely<Database>) {
  return {
    /** Inserts the entries in one statement of one parameter (a batch of corrections is a thousand). */
    insert: async (rows: Insertable<ActivityTable>[]) => {
      if (rows.length === 0) return;
      await sql`
        insert into activity (id, actor_id, actor_name, kind, document_kind, document_id, family_id, document_name,
          document_version, upload_id, pipeline_id, target_user_id, details)
        select id, actor_id, actor_name, kind, document_kind, document_id, family_id, document_name,
          document_version, upload_id, pipeline_id, target_user_id, coalesce(details, '{}'::jsonb)
        from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ ...r, details: r.details ? JSON.parse(String(r.details)) : {} })))}::jsonb)
          as x(id uuid, actor_id uuid, actor_name text, kind text, document_kind text, document_id uuid, family_id uuid,
            document_name text, document_version integer, upload_id uuid, pipeline_id uuid, target_user_id uuid, details jsonb)
      `.execute(k);
    },
    /** The entries the filters keep, newest first. */
    page: (f: ActivityFilters, offset: number, limit: number) =>
      filtered(k.selectFrom('activity'), f)
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
    async count(f: ActivityFilters): Promise<number> {
      const row = await filtered(k.selectFrom('activity'), f)
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
