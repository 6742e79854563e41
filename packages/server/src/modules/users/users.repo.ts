import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import type { UsersTable } from '../../platform/db/tables.ts';

export type UserRow = Selectable<UsersTable>;
type NewUserRow = Insertable<UsersTable>;
type UserPatch = Updateable<UsersTable>;

const uuids = (ids: readonly string[]) => sql<string[]>`cast(${`{${ids.join(',')}}`} as uuid[])`;

/** SQL for the users table and the users' pipeline assignments. */
export function usersRepo(k: Kysely<Database>) {
  return { ...userLookups(k), ...userWrites(k), ...userTfa(k), ...userTagsAndAssignments(k) };
}

/** Inserting a user and finding users: by id, name or e-mail, and the list. */
function userLookups(k: Kysely<Database>) {
  return {
    insert: (row: NewUserRow) => k.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow(),
    byId: (id: string) => k.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    byIds: (ids: readonly string[]) =>
      ids.length === 0 ? Promise.resolve([]) : k.selectFrom('users').selectAll().where('id', 'in', ids).execute(),
    /** The names of these users that exist, by first name. */
    namesOf: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k.selectFrom('users').select(['id', 'first_name', 'user_name']).where('id', 'in', ids).orderBy('first_name').execute(),
    byUserName: (userName: string) =>
      k
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['user_name']), '=', userName.toLowerCase()))
        .executeTakeFirst(),
    byEmail: (email: string) =>
      k
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .executeTakeFirst(),
    /** User names equal to the base or the base followed by digits, in lower case. */
    userNamesLike: async (base: string) =>
      (
        await k
          .selectFrom('users')
          .select((eb) => eb.fn<string>('lower', ['user_name']).as('name'))
          .where((eb) => eb(eb.fn('lower', ['user_name']), 'like', `${base.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`))
          .execute()
      ).map((r) => r.name),
    /** Every user, or with `adminTags` only those holding one of them (and `selfId`). */
    list: (scope: { adminTags: readonly string[]; selfId: string } | null) => {
      let q = k.selectFrom('users').selectAll();
      if (scope) {
        q = q.where((eb) =>
          eb.or([eb('id', '=', scope.selfId), eb(sql<boolean>`admin_tags && ${uuids(scope.adminTags)}`, '=', true)]),
        );
      }
      return q
        .orderBy((eb) => eb.fn('lower', ['first_name']))
        .orderBy((eb) => eb.fn('lower', ['last_name']))
        .execute();
    },
  };
}

/** Changing users: fields, active state, deletion, password; and counting them. */
function userWrites(k: Kysely<Database>) {
  return {
    update: (id: string, patch: UserPatch) =>
      k
        .updateTable('users')
        .set({ ...patch, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    setActive: async (ids: readonly string[], active: boolean) =>
      (
        await k
          .updateTable('users')
          .set({ is_active: active, updated_at: new Date() })
          .where('id', 'in', ids)
          .returning('id')
          .execute()
      ).map((r) => r.id),
    /** Those of these users that are active. */
    activeAmong: async (ids: readonly string[]) =>
      ids.length === 0
        ? []
        : (
            await k
              .selectFrom('users')
              .select('id')
              .where('id', 'in', [...ids])
              .where('is_active', '=', true)
              .execute()
          ).map((r) => r.id),
    deleteByIds: async (ids: readonly string[]) =>
      (await k.deleteFrom('users').where('id', 'in', ids).returning('id').execute()).map((r) => r.id),
    count: async () =>
      Number(
        (
          await k
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    countWithRole: async (role: string) =>
      Number(
        (
          await k
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .where((eb) => eb(eb.val(role), '=', eb.fn.any('roles')))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    touchLastSeen: (id: string) => k.updateTable('users').set({ last_seen_at: new Date() }).where('id', '=', id).execute(),
    setPasswordHash: (id: string, hash: string | null) =>
      k.updateTable('users').set({ password_hash: hash, updated_at: new Date() }).where('id', '=', id).execute(),
  };
}

/** The two-factor state of an account: secret, last accepted step, recovery codes. */
function userTfa(k: Kysely<Database>) {
  return {
    setTfaSecret: (id: string, sealed: string) =>
      k.updateTable('users').set({ tfa_secret: sealed }).where('id', '=', id).where('tfa_enabled', '=', false).execute(),
    /** Records the step of an accepted code; false when this step (or a later one) was used already. */
    acceptTfaStep: async (id: string, step: number) => {
      const r = await k
        .updateTable('users')
        .set({ tfa_last_step: step })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('tfa_last_step', 'is', null), eb('tfa_last_step', '<', step)]))
        .executeTakeFirst();
      return r.numUpdatedRows === 1n;
    },
    enableTfa: (id: string, recoveryHashes: readonly string[]) =>
      k
        .updateTable('users')
        .set({ tfa_enabled: true, recovery_codes: [...recoveryHashes] })
        .where('id', '=', id)
        .execute(),
    /** Spends a recovery code; false when the account has no such unused code. */
    useRecoveryCode: async (id: string, hash: string) => {
      const r = await k
        .updateTable('users')
        .set({ recovery_codes: sql<string[]>`array_remove(recovery_codes, ${hash})` })
        .where('id', '=', id)
        .where('tfa_enabled', '=', true)
        .where((eb) => eb(eb.val(hash), '=', eb.fn.any('recovery_codes')))
        .executeTakeFirst();
      return r.numUpdatedRows === 1n;
    },
    resetTfa: (id: string) =>
      k
        .updateTable('users')
        .set({ tfa_secret: null, tfa_enabled: false, recovery_codes: [], tfa_last_step: null })
        .where('id', '=', id)
        .execute(),
  };
}

/** Badges held by users and the users' pipeline assignments. */
function userTagsAndAssignments(k: Kysely<Database>) {
  return {
    // badges
    /** Takes deleted badges off every user. */
    removeTags: async (tagIds: readonly string[]) => {
      for (const id of tagIds) {
        await k
          .updateTable('users')
          .set({
            admin_tags: sql<string[]>`array_remove(admin_tags, cast(${id} as uuid))`,
            project_tags: sql<string[]>`array_remove(project_tags, cast(${id} as uuid))`,
          })
          .where((eb) =>
            eb.or([
              eb(sql`cast(${id} as uuid)`, '=', eb.fn.any('admin_tags')),
              eb(sql`cast(${id} as uuid)`, '=', eb.fn.any('project_tags')),
            ]),
          )
          .execute();
      }
    },

    // pipeline assignments
    assignments: (userIds: readonly string[]) =>
      userIds.length === 0
        ? Promise.resolve([])
        : k.selectFrom('user_pipelines').selectAll().where('user_id', 'in', userIds).execute(),
    replaceAssignments: async (userId: string, entries: readonly { family: string; isActive: boolean }[]) => {
      await k.deleteFrom('user_pipelines').where('user_id', '=', userId).execute();
      if (entries.length === 0) return;
      await k
        .insertInto('user_pipelines')
        .values(entries.map((e) => ({ user_id: userId, pipeline_family: e.family, is_active: e.isActive })))
        .execute();
    },
    /** The pipeline families assigned to the user and active. */
    assignedFamilies: async (userId: string) =>
      (
        await k
          .selectFrom('user_pipelines')
          .select('pipeline_family')
          .where('user_id', '=', userId)
          .where('is_active', '=', true)
          .execute()
      ).map((r) => r.pipeline_family),
  };
}
