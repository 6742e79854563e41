import { type Kysely, sql } from 'kysely';

/**
 * Log lines are announced by statement: the lines one insert writes go out together, as many whole
 * rows to a notification as fit under 7,700 bytes (`{t, op: 'insert', rows: [row, …]}`), instead of
 * one notification per line. A run's thousand lines were a thousand notifications that the database
 * built and sent and every instance parsed. A line too long for a notification still goes alone
 * with its id and routing keys, in its place among the others, and the listener reads it. Updates
 * and deletes of log lines stay announced row by row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function live_notify_rows() returns trigger language plpgsql as $$
    declare
      doc jsonb;
      item text;
      keys jsonb;
      batch text[] := '{}';
      used int := 0;
      head text := '{"t": ' || to_jsonb(tg_table_name)::text || ', "op": "' || lower(tg_op) || '", "rows": [';
    begin
      for doc in select to_jsonb(c) from changed c loop
        item := doc::text;
        if used > 0 and used + octet_length(item) > 7700 then
          perform pg_notify('gdb_live', head || array_to_string(batch, ', ') || ']}');
          batch := '{}';
          used := 0;
        end if;
        if octet_length(item) > 7700 then
          keys := '{}'::jsonb;
          for i in 0 .. tg_nargs - 1 loop
            keys := keys || jsonb_build_object(tg_argv[i], doc -> tg_argv[i]);
          end loop;
          perform pg_notify('gdb_live',
            jsonb_build_object('t', tg_table_name, 'op', lower(tg_op), 'id', doc -> 'id', 'keys', keys)::text);
        else
          batch := batch || item;
          used := used + octet_length(item) + 2;
        end if;
      end loop;
      if used > 0 then
        perform pg_notify('gdb_live', head || array_to_string(batch, ', ') || ']}');
      end if;
      return null;
    end $$`.execute(db);
  await sql`drop trigger if exists logs_live on logs`.execute(db);
  await sql`
    create trigger logs_live_insert after insert on logs referencing new table as changed
    for each statement execute function live_notify_rows('upload_id', 'import_id')`.execute(db);
  await sql`
    create trigger logs_live after update or delete on logs
    for each row execute function live_notify_change('upload_id', 'import_id')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists logs_live_insert on logs`.execute(db);
  await sql`drop trigger if exists logs_live on logs`.execute(db);
  await sql`
    create trigger logs_live after insert or update or delete on logs
    for each row execute function live_notify_change('upload_id', 'import_id')`.execute(db);
  await sql`drop function if exists live_notify_rows()`.execute(db);
}
