import type { Insertable, Kysely, Selectable, SelectQueryBuilder } from 'kysely';
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
    insert: async (rows: Insertable<ActivityTable>[]) => {
      if (rows.length > 0) await k.insertInto('activity').values(rows).execute();
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
