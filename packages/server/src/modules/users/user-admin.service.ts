import { USER_MESSAGES, userMatchesSearch } from '@gdb/shared/users/user-rules';
import { canSeeUser, isSuperAdmin, SCOPE_MESSAGES } from '@gdb/shared/users/user-scope';
import type { ManagedUser, PipelinesForAnswer, UserSaveBody } from '@gdb/shared/users/users.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/http/errors.ts';
import type { TagsService } from '../tags/tags.service.ts';
import {
  type AccountActions,
  type AdminAccess,
  adminAccess,
  type PipelineFamilies,
  scopeOf,
  toManaged,
  type UsersRepo,
  unique,
} from './user-admin.access.ts';
import { saveUser } from './user-save.ts';
import { usersRepo } from './users.repo.ts';

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** User management for admins and super-admins, inside the admin-badge scope. */
export function userAdminService(
  ctx: AppContext,
  tags: Pick<TagsService, 'unknownIds'>,
  accounts: AccountActions,
  pipelines: PipelineFamilies,
) {
  const repo = usersRepo(ctx.db.kysely);
  const access = adminAccess(ctx, repo);
  return {
    ...userViews(repo, access, pipelines),
    /**
     * Creates (no `_id`; mails the create-password link) or updates a user, after the dialog rules,
     * the admin-badge scope, the badges and pipelines named, and unique user name and email.
     */
    save: (caller: AuthContext, body: UserSaveBody) => saveUser({ repo, tags, accounts, pipelines, access }, caller, body),
    ...accountChanges(repo, access, accounts),
  };
}

/** What an admin reads: the users in scope, and a user's pipeline assignments. */
function userViews(repo: UsersRepo, access: AdminAccess, pipelines: PipelineFamilies) {
  const { actorOf } = access;
  return {
    /** The users the caller may manage (all for a super-admin), optionally filtered by the search text. */
    async list(caller: AuthContext, search = ''): Promise<ManagedUser[]> {
      const actor = await actorOf(caller);
      const rows = await repo.list(isSuperAdmin(actor.roles) ? null : { adminTags: actor.admin_tags, selfId: actor._id });
      const assignments = await repo.assignments(rows.map((r) => r.id));
      return rows.map((r) => toManaged(r, assignments)).filter((u) => userMatchesSearch(u, search));
    },

    /** The transfer view: every pipeline (one per family) and the user's assignments with their active flags. */
    async pipelinesFor(caller: AuthContext, id: string): Promise<PipelinesForAnswer> {
      const actor = await actorOf(caller);
      const user = await repo.byId(id);
      if (!user) throw notFound('User not found.');
      if (!canSeeUser(actor, scopeOf(user))) throw forbidden(SCOPE_MESSAGES.outOfScope);
      const families = [...(await pipelines.assignable(caller))].sort(byName);
      const active = new Map((await repo.assignments([user.id])).map((a) => [a.pipeline_family, a.is_active]));
      return {
        userPipelines: families.filter((p) => active.has(p._id)).map((p) => ({ ...p, isActive: active.get(p._id) ?? false })),
        availablePipelines: families,
      };
    },
  };
}

/** What an admin changes on users in scope: active state, deletion, password and two-factor resets. */
function accountChanges(repo: UsersRepo, access: AdminAccess, accounts: AccountActions) {
  const { actorOf, targets, audit } = access;
  return {
    /** Activates or de-activates users; de-activated users lose their sessions at once. */
    async toggle(caller: AuthContext, ids: readonly string[], enabled: boolean): Promise<string[]> {
      const actor = await actorOf(caller);
      await targets(actor, ids, false);
      const changed = await repo.setActive(unique(ids), enabled);
      if (!enabled) for (const id of changed) await accounts.revokeUserSessions(id);
      audit(actor, enabled ? 'activate' : 'de-activate', changed);
      return changed;
    },

    /** Deletes users (their sessions, links and assignments go with them). */
    async remove(caller: AuthContext, ids: readonly string[]): Promise<string[]> {
      const actor = await actorOf(caller);
      await targets(actor, ids, false);
      const deleted = await repo.deleteByIds(unique(ids));
      audit(actor, 'delete', deleted);
      return deleted;
    },

    /** Clears the user's password, ends its sessions and mails a new create-password link. */
    async resetPassword(caller: AuthContext, id: string): Promise<void> {
      const actor = await actorOf(caller);
      const [user] = await targets(actor, [id], true);
      if (!user) throw notFound('User not found.');
      await repo.setPasswordHash(user.id, null);
      await accounts.revokeUserSessions(user.id);
      audit(actor, 'reset-password', [user.id]);
      await accounts.sendPasswordLink(user, 'reset');
    },

    /** Forgets the user's two-factor secret and recovery codes; the next sign-in sets it up again. */
    async resetTfa(caller: AuthContext, id: string): Promise<void> {
      const actor = await actorOf(caller);
      const [user] = await targets(actor, [id], false);
      if (!user) throw notFound('User not found.');
      await repo.resetTfa(user.id);
      await accounts.revokeUserSessions(user.id);
      audit(actor, 'reset-tfa', [user.id]);
    },
  };
}

export type UserAdminService = ReturnType<typeof userAdminService>;

/** The answer's message for a save. */
export function saveMessage(created: boolean): string {
  return created ? USER_MESSAGES.created : USER_MESSAGES.updated;
}
