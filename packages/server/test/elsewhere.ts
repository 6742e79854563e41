import { CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Db } from '../src/platform/db/index.ts';

/**
 * Writes as another instance would, past every service (and cache) of this one: on PostgreSQL
 * through a connection of its own, on PGlite (one process) straight to the database.
 */
export async function writeElsewhere(db: Db, text: string, params: unknown[] = []): Promise<void> {
  const url = db.pgPool?.options.connectionString;
  if (!url) {
    await db.kysely.executeQuery(CompiledQuery.raw(text, params));
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** Waits until a check, asynchronous or not, holds. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('until: timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
