import { type Kysely, sql } from 'kysely';

/** Two-factor challenges and replay guard, sign-in throttling shared by every instance, unique badge names. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The TOTP time step last accepted: a code is never accepted twice.
  await sql`alter table users add column tfa_last_step bigint`.execute(db);
  await sql`
    create table tfa_challenges (
      id_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index tfa_challenges_user_idx on tfa_challenges (user_id)`.execute(db);
  // Fixed-window counters keyed by purpose and hashed account or client address.
  await sql`
    create table auth_throttle (
      key text primary key,
      window_start timestamptz not null,
      hits integer not null
    )`.execute(db);
  await sql`create index password_tokens_user_idx on password_tokens (user_id)`.execute(db);
  await sql`create unique index tags_type_name_key on tags (type, lower(name))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists tags_type_name_key`.execute(db);
  await sql`drop index if exists password_tokens_user_idx`.execute(db);
  await sql`drop table if exists auth_throttle`.execute(db);
  await sql`drop table if exists tfa_challenges`.execute(db);
  await sql`alter table users drop column if exists tfa_last_step`.execute(db);
}
