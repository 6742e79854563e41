import { type Kysely, sql } from 'kysely';

/**
 * Change feed of the live-data channel: row triggers send `pg_notify('gdb_live', …)` at commit.
 * A payload holds the table, the operation, the id and the whole row when it fits under the
 * 8000-byte limit; otherwise only the id and the routing keys named as trigger arguments, and the
 * listener reads the row. Sessions revoked and users whose access changed are announced too, so
 * every instance can end their subscriptions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function live_notify_change() returns trigger language plpgsql as $$
    declare
      doc jsonb;
      keys jsonb := '{}'::jsonb;
      payload text;
    begin
      if tg_op = 'DELETE' then doc := to_jsonb(old); else doc := to_jsonb(new); end if;
      if tg_op <> 'DELETE' then
        payload := jsonb_build_object('t', tg_table_name, 'op', lower(tg_op), 'id', doc -> 'id', 'row', doc)::text;
      end if;
      if payload is null or octet_length(payload) > 7900 then
        for i in 0 .. tg_nargs - 1 loop
          keys := keys || jsonb_build_object(tg_argv[i], doc -> tg_argv[i]);
        end loop;
        payload := jsonb_build_object('t', tg_table_name, 'op', lower(tg_op), 'id', doc -> 'id', 'keys', keys)::text;
      end if;
      perform pg_notify('gdb_live', payload);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger logs_live after insert or update or delete on logs
    for each row execute function live_notify_change('upload_id', 'import_id')`.execute(db);
  await sql`
    create trigger uploads_live after insert or update or delete on uploads
    for each row execute function live_notify_change('pipeline_id')`.execute(db);
  await sql`
    create trigger imports_live after insert or update or delete on imports
    for each row execute function live_notify_change('pipeline_id')`.execute(db);

  await sql`
    create or replace function live_notify_access() returns trigger language plpgsql as $$
    begin
      if tg_table_name = 'sessions' then
        perform pg_notify('gdb_live', jsonb_build_object('t', 'sessions', 'id', new.id)::text);
      elsif tg_table_name = 'users' and tg_op = 'DELETE' then
        perform pg_notify('gdb_live', jsonb_build_object('t', 'users', 'id', old.id)::text);
      elsif tg_table_name = 'users' then
        perform pg_notify('gdb_live', jsonb_build_object('t', 'users', 'id', new.id)::text);
      elsif tg_op = 'DELETE' then
        perform pg_notify('gdb_live', jsonb_build_object('t', 'users', 'id', old.user_id)::text);
      else
        perform pg_notify('gdb_live', jsonb_build_object('t', 'users', 'id', new.user_id)::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger sessions_live after update of revoked_at on sessions
    for each row when (old.revoked_at is null and new.revoked_at is not null)
    execute function live_notify_access()`.execute(db);
  await sql`
    create trigger users_live after update of is_active, roles on users
    for each row when (old.is_active is distinct from new.is_active or old.roles is distinct from new.roles)
    execute function live_notify_access()`.execute(db);
  await sql`create trigger users_live_delete after delete on users for each row execute function live_notify_access()`.execute(
    db,
  );
  await sql`
    create trigger user_pipelines_live after insert or update or delete on user_pipelines
    for each row execute function live_notify_access()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [trigger, table] of [
    ['logs_live', 'logs'],
    ['uploads_live', 'uploads'],
    ['imports_live', 'imports'],
    ['sessions_live', 'sessions'],
    ['users_live', 'users'],
    ['users_live_delete', 'users'],
    ['user_pipelines_live', 'user_pipelines'],
  ] as const) {
    await sql`drop trigger if exists ${sql.raw(trigger)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function if exists live_notify_change()`.execute(db);
  await sql`drop function if exists live_notify_access()`.execute(db);
}
