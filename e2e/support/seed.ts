// Prepares the database of the browser tests, in its own short-lived process (PGlite allows one
// process at a time, and the server code needs node's --no-node-snapshot):
//   seed.ts            creates the test users in DATA_DIR (or, with DATABASE_URL, in a fresh
//                      database on that server) and prints {"databaseUrl": …} on its last line;
//   seed.ts --bare     creates only the test users, the admin and the user sharing a group badge
//                      (a fresh install's accounts, without the demo content);
//   seed.ts --drop URL drops that database again.
import { buildApp } from '../../packages/server/src/app.ts';
import { seedDemo } from '../../packages/server/src/modules/demo/demo.seed.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { openDb } from '../../packages/server/src/platform/db/index.ts';
import { createTestDb } from '../../packages/server/test/test-db.ts';
import { HOSTILE_SCHEMA, STORED_HOSTILE_MODEL } from './models.ts';
import { COUNTRY_PIPELINE, SLOW_PIPELINE, SLOW_RUN_MS } from './pipelines.ts';
import { BARE_TEAM_BADGE, E2E_PASSWORD, USERS } from './users.ts';

async function drop(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^gdb_test_[0-9a-f]+$/.test(name)) throw new Error(`Refusing to drop ${name}: not a test database`);
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is needed to drop a test database');
  const db = await openDb({ databaseUrl: base });
  await db.query(`drop database if exists ${name} with (force)`);
  await db.close();
}

/** The demo pipelines, a slow one beside them, and both given to the test user. */
async function seedPipelines(built: Awaited<ReturnType<typeof buildApp>>, userId: string): Promise<void> {
  const { ctx, services } = built;
  await seedDemo({ ctx, ...services });
  const k = ctx.db.kysely;
  const country = await k.selectFrom('pipelines').selectAll().where('name', '=', COUNTRY_PIPELINE).executeTakeFirstOrThrow();
  const slowComponent = await services.components.create({
    name: 'Slow dealer check',
    kind: 'instruction',
    inputs: [{ name: 'dealers' }],
    outputs: [{ name: 'dealers' }],
    jsCode: `const until = Date.now() + ${SLOW_RUN_MS};
while (Date.now() < until) {}
ctx.output.dealers = ctx.input.dealers;
ctx.log.info('Checked ' + ctx.input.dealers.length + ' dealers slowly.');`,
  });
  const slowId = await services.pipelines.create({
    name: SLOW_PIPELINE,
    isMaster: false,
    component: slowComponent._id,
    dataSources: JSON.parse(JSON.stringify(country.data_sources)),
    dataSinks: [{ name: 'dealers', format: 'CSV', target: null }],
    brand: country.brand,
    locale: country.locale,
    productLine: country.product_line,
    datakind: country.datakind,
  });
  const slow = await k.selectFrom('pipelines').select('family_id').where('id', '=', slowId).executeTakeFirstOrThrow();
  await k
    .insertInto('user_pipelines')
    .values([
      { user_id: userId, pipeline_family: country.family_id },
      { user_id: userId, pipeline_family: slow.family_id },
    ])
    .execute();
}

/**
 * The manager's data model with an escalating ajax rule, written as a row: the server refuses to
 * save it now, but one stored before must still not run in a viewer's browser.
 */
async function seedStoredHostileModel(built: Awaited<ReturnType<typeof buildApp>>, managerId: string): Promise<void> {
  const id = crypto.randomUUID();
  await built.ctx.db.kysely
    .insertInto('schemas')
    .values({
      id,
      family_id: id,
      version: 1,
      folder_id: null,
      name: STORED_HOSTILE_MODEL,
      json_schema: JSON.stringify(HOSTILE_SCHEMA),
      created_by: managerId,
      updated_by: managerId,
    })
    .execute();
}

/** The test users; the admin and the user share `groupBadge` when one is given, so the admin manages the user. */
async function seedUsers(built: Awaited<ReturnType<typeof buildApp>>, groupBadge?: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [key, u] of Object.entries(USERS)) {
    const shared = groupBadge && (key === 'admin' || key === 'user') ? { adminTags: [groupBadge] } : {};
    const created = await built.services.users.create({
      firstName: u.firstName,
      lastName: u.lastName,
      userName: u.userName,
      email: `${u.userName}@example.test`,
      roles: u.roles,
      password: E2E_PASSWORD,
      ...shared,
    });
    ids[key] = created.id;
  }
  return ids;
}

async function seed(bare: boolean): Promise<void> {
  const fresh = process.env.DATABASE_URL ? await createTestDb() : undefined;
  const config = loadConfig({ ...process.env, DATABASE_URL: fresh?.url, LOG_LEVEL: 'warn' });
  const built = await buildApp(config, { web: false, ...(fresh ? { db: fresh.db } : {}) });
  if (bare) {
    const team = await built.services.tags.save({ name: BARE_TEAM_BADGE, type: 'group' });
    await seedUsers(built, team._id);
  } else {
    const ids = await seedUsers(built);
    await seedPipelines(built, ids.user ?? '');
    await seedStoredHostileModel(built, ids.manager ?? '');
  }
  await built.app.close();
  await fresh?.db.close();
  process.stdout.write(`\n${JSON.stringify({ databaseUrl: fresh?.url ?? null })}\n`);
}

const dropAt = process.argv.indexOf('--drop');
if (dropAt >= 0) await drop(process.argv[dropAt + 1] ?? '');
else await seed(process.argv.includes('--bare'));
