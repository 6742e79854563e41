import type { FastifyBaseLogger } from 'fastify';
import type { Secrets } from './auth/secrets.ts';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';

/** What every service is built from. */
export interface AppContext {
  config: Config;
  db: Db;
  secrets: Secrets;
  log: FastifyBaseLogger;
}
