import pino from 'pino';
import { buildServices } from './app.ts';
import { loadSecrets } from './platform/auth/secrets.ts';
import { loadConfig } from './platform/config.ts';
import type { AppContext } from './platform/context.ts';
import { migrateToLatest, openDb } from './platform/db/index.ts';

// Works jobs only (`npm run worker`): import runs, the clock of scheduled and repeat jobs, upload
// checks left unfinished. Start as many as the load needs, against the server's database.
const config = loadConfig();
const log = pino({ level: config.logLevel, base: { role: 'worker' } });
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize });
await migrateToLatest(db);
const ctx: AppContext = { config, db, secrets: loadSecrets(config.appSecret, config.dataDir), log };
const services = buildServices(ctx);
await services.reference.seed();

const resumed = await services.uploads.resume();
if (resumed > 0) log.info({ uploads: resumed }, 'resumed unfinished upload checks');
services.uploads.watch();
await services.imports.startWorking({ concurrency: Math.max(1, config.importConcurrency) });
log.info({ workerId: services.imports.runner.workerId }, 'worker started');

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'worker stopping');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    (async () => {
      await services.imports.stopWorking();
      await services.uploads.settled();
      services.runtime.close();
      await db.close();
    })().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'worker stop failed');
        process.exit(1);
      },
    );
  });
}
