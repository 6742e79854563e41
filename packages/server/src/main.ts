import { buildApp } from './app.ts';
import { seedDemo } from './modules/demo/demo.seed.ts';
import { loadConfig } from './platform/config.ts';

const config = loadConfig();
const { app, services, ctx } = await buildApp(config);

const created = await services.users.ensureFirstAdmin();
if (created?.generatedPassword) {
  // Printed once, on the start that created the account; it is stored only as a hash.
  process.stdout.write(
    `\n  First super-admin created.\n  URL:      ${config.publicUrl}/login\n  Username: ${created.userName}\n  Password: ${created.generatedPassword}\n\n`,
  );
} else if (created) {
  ctx.log.info({ userName: created.userName }, 'first super-admin created from ADMIN_USERNAME');
}

if (config.demoData) await seedDemo({ ctx, ...services });

// Upload checks a stop left unfinished start again, and those a dead instance leaves are taken over; imports are worked here unless IMPORT_CONCURRENCY is 0.
const resumed = await services.uploads.resume();
if (resumed > 0) ctx.log.info({ uploads: resumed }, 'resumed unfinished upload checks');
services.uploads.watch();
if (config.importConcurrency > 0) await services.imports.startWorking();
// Every published listener is consumed here too (competing consumers), unless LISTENERS_ENABLED is false.
if (config.listeners.enabled) await services.listenerRuntime.start();

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    ctx.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        ctx.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });
ctx.log.info(`GDB Importer listening on ${config.publicUrl}`);
