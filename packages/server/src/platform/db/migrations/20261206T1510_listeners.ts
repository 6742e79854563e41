import { type Kysely, sql } from 'kysely';

/**
 * Published listeners (docs/product.md §18.7): one per pipeline version, consuming a queue, topic
 * or subject of a broker; the password at the broker is kept encrypted. `listener_states` holds
 * what each server instance reports of each listener (by host name); `listener_messages` the ids
 * of the messages already stored, so that a redelivered one is dropped (kept for a week).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table listeners (
      id uuid primary key,
      pipeline_id uuid not null,
      kind text not null check (kind in ('amqp', 'mqtt', 'nats')),
      url text not null,
      queue text not null,
      jet_stream boolean not null default false,
      batch_size integer not null check (batch_size between 1 and 10000),
      batch_wait_ms integer not null check (batch_wait_ms between 10 and 60000),
      username text not null default '',
      password_sealed text,
      created_at timestamptz not null default now(),
      created_by uuid,
      created_by_name text not null,
      updated_at timestamptz not null default now(),
      updated_by uuid,
      updated_by_name text not null
    )`.execute(db);
  await sql`create unique index listeners_pipeline_idx on listeners (pipeline_id)`.execute(db);
  await sql`
    create table listener_states (
      listener_id uuid not null references listeners (id) on delete cascade,
      hostname text not null,
      state text not null,
      last_error text,
      updated_at timestamptz not null default now(),
      primary key (listener_id, hostname)
    )`.execute(db);
  await sql`
    create table listener_messages (
      listener_id uuid not null references listeners (id) on delete cascade,
      message_id text not null,
      seen_at timestamptz not null default now(),
      primary key (listener_id, message_id)
    )`.execute(db);
  await sql`create index listener_messages_seen_idx on listener_messages (seen_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists listener_messages`.execute(db);
  await sql`drop table if exists listener_states`.execute(db);
  await sql`drop table if exists listeners`.execute(db);
}
