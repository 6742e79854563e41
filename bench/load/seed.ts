// Child process of the load bench: prepares its database before the server starts (PGlite allows
// one process at a time). Creates the demo pipelines, the bench's users (every other one a manager, each given
// the demo country pipeline and two pipelines for large files, the first manager also one fed by a
// listener); prints
// {"databaseUrl": …} on its last line. With DATABASE_URL it works in a new database on that server.
//   seed.ts   (BENCH_USERS, DATA_DIR, DATABASE_URL); e2e/support/seed.ts --drop URL drops that database again.
import { buildApp } from '../../packages/server/src/app.ts';
import { seedDemo } from '../../packages/server/src/modules/demo/demo.seed.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { createTestDb } from '../../packages/server/test/test-db.ts';
import { createListenerPipeline } from '../listeners/pipeline.ts';
import { BENCH_PASSWORD, BIG_PIPELINES, benchUserName, isManager, LISTENER_PIPELINE } from './plan.ts';

type Built = Awaited<ReturnType<typeof buildApp>>;

/** Two pipelines like the demo's French one whose component only passes the rows through. */
async function bigPipelines(built: Built): Promise<string[]> {
  const { ctx, services } = built;
  const k = ctx.db.kysely;
  const country = await k.selectFrom('pipelines').selectAll().where('name', '=', 'Dealers France').executeTakeFirstOrThrow();
  const component = await services.components.create({
    name: 'Pass dealers',
    kind: 'instruction',
    inputs: [{ name: 'dealers' }],
    outputs: [{ name: 'dealers' }],
    jsCode: `ctx.output.dealers = ctx.input.dealers;\nctx.log.info(ctx.input.dealers.length + ' dealers passed.');`,
  });
  const families = [country.family_id];
  for (const name of BIG_PIPELINES) {
    const id = await services.pipelines.create({
      name,
      isMaster: false,
      component: component._id,
      dataSources: JSON.parse(JSON.stringify(country.data_sources)),
      dataSinks: [{ name: 'dealers', format: 'CSV', target: null }],
      brand: country.brand,
      locale: country.locale,
      productLine: country.product_line,
      datakind: country.datakind,
    });
    const row = await k.selectFrom('pipelines').select('family_id').where('id', '=', id).executeTakeFirstOrThrow();
    families.push(row.family_id);
  }
  return families;
}

/** The pipeline fed by a listener, its data model made by `makerId`. */
async function listenerFamily(built: Built, makerId: string): Promise<string> {
  const k = built.ctx.db.kysely;
  const id = await createListenerPipeline(built.services, makerId, LISTENER_PIPELINE);
  return (await k.selectFrom('pipelines').select('family_id').where('id', '=', id).executeTakeFirstOrThrow()).family_id;
}

async function seed(): Promise<void> {
  const users = Number(process.env.BENCH_USERS ?? 50);
  const fresh = process.env.DATABASE_URL ? await createTestDb() : undefined;
  const config = loadConfig({ ...process.env, DATABASE_URL: fresh?.url, LOG_LEVEL: 'warn' });
  const built = await buildApp(config, { web: false, ...(fresh ? { db: fresh.db } : {}) });
  await seedDemo({ ctx: built.ctx, ...built.services });
  const families = await bigPipelines(built);
  let manager: string | undefined;
  for (let i = 1; i <= users; i++) {
    const created = await built.services.users.create({
      firstName: `Bench${i}`,
      lastName: 'User',
      userName: benchUserName(i),
      email: `${benchUserName(i)}@example.test`,
      roles: isManager(i) ? ['manager'] : ['user'],
      password: BENCH_PASSWORD,
    });
    await built.ctx.db.kysely
      .insertInto('user_pipelines')
      .values(families.map((f) => ({ user_id: created.id, pipeline_family: f })))
      .execute();
    manager ??= isManager(i) ? created.id : undefined;
  }
  // Given to the first manager alone, who publishes it: the other users' reads stay as they were.
  const listener = manager ? await listenerFamily(built, manager) : undefined;
  if (manager && listener)
    await built.ctx.db.kysely.insertInto('user_pipelines').values({ user_id: manager, pipeline_family: listener }).execute();
  await built.app.close();
  await fresh?.db.close();
  process.stdout.write(`\n${JSON.stringify({ databaseUrl: fresh?.url ?? null })}\n`);
}

await seed();
