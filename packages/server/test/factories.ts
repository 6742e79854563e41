// Factories for the server's tests and benches. Users and pipelines are made through their
// services, with the rules those apply. Uploads, imports and pipeline assignments are made by
// their services only from a whole request (a file stream, a queued run, a user edit), so they
// come from the seed path at the end of this file (`buildUpload`, `buildImport`, `assignPipeline`),
// which writes a row with the fields a test names and the table's defaults for the rest: the only
// place tests write rows directly, besides tests about a raw row itself (which say so).
import type { Role } from '@gdb/shared/auth/roles';
import type { Kysely } from 'kysely';
import type { Services } from '../src/app.ts';
import type { NewPipeline } from '../src/modules/pipelines/pipelines.service.ts';
import type { User } from '../src/modules/users/users.service.ts';
import type { AuthContext } from '../src/platform/auth/access-control.ts';
import type { Database } from '../src/platform/db/tables.ts';
import { newId } from '../src/platform/ids.ts';

export const TEST_PASSWORD = 'Str0ng!Passw0rd';

/** What the factories need of a built app (a test app, or the app a bench builds). */
export interface FactoryApp {
  services: Pick<Services, 'users' | 'pipelines' | 'schemas' | 'auth' | 'reference'>;
  ctx: { db: { kysely: Kysely<Database> } };
}

let counter = 0;

/**
 * A super-admin caller, whom no badge refuses: what a test passes, explicitly, to a service call
 * that takes the caller's access when the test is not about access (`userId` records the author).
 */
export function superAdmin(userId = '00000000-0000-0000-0000-000000000000'): AuthContext {
  return { userId, sessionId: 'test', userName: 'test-super-admin', roles: ['super-admin'] };
}

export interface UserFields {
  firstName: string;
  lastName: string;
  userName: string;
  email: string;
  unrestrictedUpload: boolean;
}

/** A user with these roles (password TEST_PASSWORD), through the users service. */
export async function buildUser(app: FactoryApp, roles: Role[], fields: Partial<UserFields> = {}): Promise<User> {
  counter += 1;
  const first = fields.firstName ?? `first${counter}`;
  const last = fields.lastName ?? `last${counter}x`;
  return app.services.users.create({
    firstName: first,
    lastName: last,
    userName: fields.userName ?? `${first}.${last}`,
    email: fields.email ?? `${first}.${last}@example.test`,
    roles,
    password: TEST_PASSWORD,
    ...(fields.unrestrictedUpload !== undefined ? { unrestrictedUpload: fields.unrestrictedUpload } : {}),
  });
}

/** The reference values a pipeline names: the first brand, locale and product line, and the dealer datakind (seeded by the migrations). */
export async function referenceValues(app: FactoryApp) {
  const [brands, locales, lines, kinds] = await Promise.all([
    app.services.reference.brands(),
    app.services.reference.locales(),
    app.services.reference.productLines(),
    app.services.reference.datakinds(),
  ]);
  const need = (id: string | undefined, what: string) => {
    if (!id) throw new Error(`No ${what} in the reference data.`);
    return id;
  };
  return {
    brand: need(brands[0]?._id, 'brand'),
    locale: need(locales[0]?._id, 'locale'),
    productLine: need(lines[0]?._id, 'product line'),
    datakind: need(kinds.find((k) => k.isDealer)?._id, 'dealer datakind'),
  };
}

/** A pipeline (version 1 of a new family unless told otherwise), through the pipelines service. */
export async function buildPipeline(
  app: FactoryApp,
  fields: Partial<NewPipeline> = {},
): Promise<{ id: string; familyId: string }> {
  const familyId = fields.familyId ?? newId();
  const id = await app.services.pipelines.create({
    name: 'pipeline',
    isMaster: false,
    dataSources: [],
    dataSinks: [],
    ...fields,
    familyId,
  });
  return { id, familyId };
}

/** A data model (version 1) with this JSON schema, through the data models service, saved by a user made for it. */
export async function buildDataModel(app: FactoryApp, name: string, jsonSchema: Record<string, unknown>): Promise<string> {
  const author = await buildUser(app, ['manager']);
  const auth = { userId: author.id, sessionId: newId(), userName: author.user_name, roles: author.roles };
  return (await app.services.schemas.save(auth, { name, jsonSchema }))._id;
}

/** An upload row of the pipeline, without a file (seed path). */
export async function buildUpload(
  app: FactoryApp,
  pipelineId: string,
  fields: { dataSubKind?: string; status?: 'pending' | 'processing' | 'valid' | 'invalid' } = {},
): Promise<string> {
  const id = newId();
  await app.ctx.db.kysely
    .insertInto('uploads')
    .values({
      id,
      pipeline_id: pipelineId,
      data_sub_kind: fields.dataSubKind ?? 'main',
      from: 'source',
      status: fields.status ?? 'pending',
      original_filename: 'data.csv',
    })
    .execute();
  return id;
}

/** A pending import row of the pipeline, not queued (seed path). */
export async function buildImport(app: FactoryApp, pipelineId: string): Promise<string> {
  const id = newId();
  await app.ctx.db.kysely.insertInto('imports').values({ id, pipeline_id: pipelineId }).execute();
  return id;
}

/** Assigns a pipeline's family (named by a version id or the family id) to a user, active unless told otherwise (seed path). */
export async function assignPipeline(app: FactoryApp, userId: string, pipelineId: string, isActive = true): Promise<void> {
  const familyId = (await app.services.pipelines.familiesOf([pipelineId])).get(pipelineId);
  if (!familyId) throw new Error(`no pipeline ${pipelineId}`);
  await app.ctx.db.kysely
    .insertInto('user_pipelines')
    .values({ user_id: userId, pipeline_family: familyId, is_active: isActive })
    .execute();
  // Written past the users service: the instance's session cache would keep the old assignments.
  app.services.auth.sessions.forgetUser(userId);
}
