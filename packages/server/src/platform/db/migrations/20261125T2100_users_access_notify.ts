import { type Kysely, sql } from 'kysely';

/**
 * A user's access changes with their project badges and their unrestricted-upload flag as well as
 * with their roles and activity: each instance keeps what its access checks read of a caller with
 * their session, so a change to any of them is announced (`{t: 'users', id}`) and forgets it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists users_live on users`.execute(db);
  await sql`
    create trigger users_live after update of is_active, roles, project_tags, unrestricted_upload on users
    for each row when (
      old.is_active is distinct from new.is_active or old.roles is distinct from new.roles
      or old.project_tags is distinct from new.project_tags
      or old.unrestricted_upload is distinct from new.unrestricted_upload)
    execute function live_notify_access()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists users_live on users`.execute(db);
  await sql`
    create trigger users_live after update of is_active, roles on users
    for each row when (old.is_active is distinct from new.is_active or old.roles is distinct from new.roles)
    execute function live_notify_access()`.execute(db);
}
