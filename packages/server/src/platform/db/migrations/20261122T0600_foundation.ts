import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key,
      first_name text not null,
      last_name text not null,
      user_name text not null,
      email text not null,
      service text not null default '',
      roles text[] not null,
      is_active boolean not null default true,
      unrestricted_upload boolean not null default false,
      is_no_code boolean not null default false,
      password_hash text,
      tfa_secret text,
      tfa_enabled boolean not null default false,
      recovery_codes text[] not null default '{}',
      admin_tags uuid[] not null default '{}',
      project_tags uuid[] not null default '{}',
      avatar text,
      last_seen_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by uuid
    )`.execute(db);
  await sql`create unique index users_user_name_key on users (lower(user_name))`.execute(db);
  await sql`create unique index users_email_key on users (lower(email))`.execute(db);

  await sql`
    create table sessions (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      client_ip text,
      user_agent text
    )`.execute(db);
  await sql`create index sessions_user_id_idx on sessions (user_id)`.execute(db);
  await sql`
    create table refresh_tokens (
      token_hash text primary key,
      session_id uuid not null references sessions (id) on delete cascade,
      created_at timestamptz not null default now(),
      used_at timestamptz
    )`.execute(db);
  await sql`create index refresh_tokens_session_id_idx on refresh_tokens (session_id)`.execute(db);
  await sql`
    create table password_tokens (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      purpose text not null check (purpose in ('create', 'reset')),
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table tags (
      id uuid primary key,
      name text not null,
      type text not null check (type in ('group', 'project')),
      color text,
      is_hidden boolean not null default false,
      is_metadata boolean not null default false,
      metadata text,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`create table brands (id uuid primary key, name text not null unique)`.execute(db);
  await sql`
    create table locales (
      id uuid primary key,
      language text not null,
      country text not null,
      name text not null,
      unique (language, country)
    )`.execute(db);
  await sql`create table product_lines (id uuid primary key, name text not null unique)`.execute(db);
  await sql`
    create table datakinds (
      id uuid primary key,
      name text not null unique,
      is_dealer boolean not null default false
    )`.execute(db);
  await sql`create unique index datakinds_one_dealer on datakinds (is_dealer) where is_dealer`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'datakinds',
    'product_lines',
    'locales',
    'brands',
    'tags',
    'password_tokens',
    'refresh_tokens',
    'sessions',
    'users',
  ]) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
}
