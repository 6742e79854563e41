import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

/** Where file bytes live: a local folder (one instance) or the database (any number). */
export interface FileStore {
  readonly kind: 'local' | 'database';
  /** Stores the bytes under a new key and answers the key once they are durable. */
  put(bytes: Uint8Array): Promise<string>;
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{2}\/[0-9a-f]{32}$/;

function newKey(): string {
  const hex = crypto.randomBytes(16).toString('hex');
  return `${hex.slice(0, 2)}/${hex}`;
}

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid file key: ${key}`);
  return key;
}

/** Files under `root`, written to a temporary name, flushed, then renamed into place. */
export function localFileStore(root: string): FileStore {
  return {
    kind: 'local',
    async put(bytes) {
      const key = newKey();
      const target = path.join(root, key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temp = `${target}.${process.pid}.tmp`;
      const handle = await fs.open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
      return key;
    },
    get: async (key) => fs.readFile(path.join(root, checkKey(key))),
    async delete(key) {
      await fs.rm(path.join(root, checkKey(key)), { force: true });
    },
  };
}

/** Files as rows of `file_blobs`, committed before the key is answered. */
export function databaseFileStore(db: Db): FileStore {
  return {
    kind: 'database',
    async put(bytes) {
      const key = newKey();
      await sql`insert into file_blobs (key, bytes, size) values (${key}, ${Buffer.from(bytes)}, ${bytes.length})`.execute(
        db.kysely,
      );
      return key;
    },
    async get(key) {
      const r = await sql<{ bytes: Uint8Array }>`select bytes from file_blobs where key = ${checkKey(key)}`.execute(db.kysely);
      const row = r.rows[0];
      if (!row) throw new Error(`No stored file ${key}`);
      return Buffer.from(row.bytes);
    },
    async delete(key) {
      await sql`delete from file_blobs where key = ${checkKey(key)}`.execute(db.kysely);
    },
  };
}

/** The store the configuration names; by default local for the embedded database, the database otherwise. */
export function openFileStore(kind: 'local' | 'database' | undefined, db: Db, dataDir: string): FileStore {
  const chosen = kind ?? (db.engine === 'pglite' ? 'local' : 'database');
  return chosen === 'local' ? localFileStore(path.join(dataDir, 'files')) : databaseFileStore(db);
}
