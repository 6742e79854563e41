import { CODES } from '@gdb/shared/api/envelope';
import { deriveUserName, roleChangeEffects, USER_MESSAGES, userMatchesSearch } from '@gdb/shared/users/user-rules';
import {
  canSeeUser,
  isSuperAdmin,
  manageUserError,
  SCOPE_MESSAGES,
  type ScopeActor,
  type ScopeTarget,
  saveScopeError,
  userSaveIssues,
} from '@gdb/shared/users/user-scope';
import type { AssignablePipeline, ManagedUser, PipelinesForAnswer, UserSaveBody } from '@gdb/shared/users/users.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { conflict, forbidden, invalid, notFound, unauthorized } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { TagsService } from '../tags/tags.service.ts';
import { type UserRow, usersRepo } from './users.repo.ts';

type Assignment = { user_id: string; pipeline_family: string; is_active: boolean };

const scopeOf = (row: UserRow): ScopeTarget => ({ _id: row.id, roles: row.roles, admin_tags: row.admin_tags });
const unique = (ids: readonly string[]) => [...new Set(ids)];
const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

function toManaged(row: UserRow, assignments: readonly Assignment[]): ManagedUser {
  return {
    _id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    userName: row.user_name,
    email: row.email,
    service: row.service,
    role: row.roles.join(','),
    roles: row.roles.map((name) => ({ name })),
    isActive: row.is_active,
    unrestrictedUpload: row.unrestricted_upload,
    isNoCode: row.is_no_code,
    tfaEnabled: row.tfa_enabled,
    lastSeenDate: row.last_seen_at ? row.last_seen_at.toISOString() : null,
    admin_tags: row.admin_tags,
    project_tags: row.project_tags,
    pipelinePermissions: Object.fromEntries(
      assignments.filter((a) => a.user_id === row.id).map((a) => [a.pipeline_family, { isActive: a.is_active }]),
    ),
  };
}

/** What user management asks of the sign-in side: sessions ended, password links mailed. */
export interface AccountActions {
  revokeUserSessions(userId: string): Promise<void>;
  sendPasswordLink(user: UserRow, purpose: 'create' | 'reset'): Promise<void>;
}

/** What user management reads of the pipelines: the families to assign, and the family of an id. */
export interface PipelineFamilies {
  assignable(): Promise<readonly AssignablePipeline[]>;
  familiesOf(ids: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** User management for admins and super-admins, inside the admin-badge scope. */
export function userAdminService(
  ctx: AppContext,
  tags: Pick<TagsService, 'unknownIds'>,
  accounts: AccountActions,
  pipelines: PipelineFamilies,
) {
  const repo = usersRepo(ctx.db.kysely);
  const audit = (actor: ScopeActor, action: string, ids: readonly string[]) =>
    ctx.log.info({ actorId: actor._id, action, userIds: ids }, 'user management');

  async function actorOf(caller: AuthContext): Promise<ScopeActor> {
    const row = await repo.byId(caller.userId);
    if (!row) throw unauthorized(CODES.badToken, 'Invalid token.');
    return { _id: row.id, roles: row.roles, admin_tags: row.admin_tags };
  }

  /** The users an action names, each checked against the actor's scope. */
  async function targets(actor: ScopeActor, ids: readonly string[], selfAllowed: boolean): Promise<UserRow[]> {
    const rows = await repo.byIds(unique(ids));
    if (rows.length !== unique(ids).length) throw notFound('User not found.');
    for (const row of rows) {
      const refused = manageUserError(actor, scopeOf(row), selfAllowed);
      if (refused) throw forbidden(refused);
    }
    return rows;
  }

  /** The derived user name, with a number added when another user has it already. */
  async function freeUserName(base: string): Promise<string> {
    if (!base) return base;
    const taken = new Set(await repo.userNamesLike(base));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
  }

  async function checkBadges(adminTags: string[], projectTags: string[]): Promise<void> {
    const issues = [
      ...(await tags.unknownIds(adminTags, 'group')).map((id) => ({ path: 'admin_tags', message: `Unknown admin badge: ${id}` })),
      ...(await tags.unknownIds(projectTags, 'project')).map((id) => ({
        path: 'project_tags',
        message: `Unknown project badge: ${id}`,
      })),
    ];
    const first = issues[0];
    if (first) throw invalid(first.message, issues);
  }

  /** Pipeline (version or family) ids → family assignments; unknown ids are refused. */
  async function assignmentsFrom(permissions: Record<string, { isActive: boolean }>) {
    const ids = Object.keys(permissions);
    const family = await pipelines.familiesOf(ids);
    const missing = ids.filter((id) => !family.has(id));
    if (missing.length > 0) {
      throw invalid(
        `Unknown pipeline: ${missing.join(', ')}`,
        missing.map((id) => ({ path: `pipelinePermissions.${id}`, message: 'Unknown pipeline' })),
      );
    }
    const out = new Map<string, boolean>();
    for (const [id, p] of Object.entries(permissions)) out.set(family.get(id) ?? id, p.isActive);
    return [...out].map(([f, isActive]) => ({ family: f, isActive }));
  }

  return {
    /** The users the caller may manage (all for a super-admin), optionally filtered by the search text. */
    async list(caller: AuthContext, search = ''): Promise<ManagedUser[]> {
      const actor = await actorOf(caller);
      const rows = await repo.list(isSuperAdmin(actor.roles) ? null : { adminTags: actor.admin_tags, selfId: actor._id });
      const assignments = await repo.assignments(rows.map((r) => r.id));
      return rows.map((r) => toManaged(r, assignments)).filter((u) => userMatchesSearch(u, search));
    },

    /**
     * Creates (no `_id`; mails the create-password link) or updates a user, after the dialog rules,
     * the admin-badge scope, the badges and pipelines named, and unique user name and email.
     */
    async save(caller: AuthContext, body: UserSaveBody): Promise<{ user: ManagedUser; created: boolean }> {
      const actor = await actorOf(caller);
      const before = body._id ? await repo.byId(body._id) : null;
      if (body._id && !before) throw notFound('User not found.');
      if (before) {
        const refused = manageUserError(actor, scopeOf(before), true);
        if (refused) throw forbidden(refused);
      }
      const firstName = body.firstName.trim();
      const lastName = body.lastName.trim();
      const email = body.email.trim();
      const roles = [...body.roles];
      const adminTags = unique(body.admin_tags ?? before?.admin_tags ?? []);
      const projectTags = unique(body.project_tags ?? before?.project_tags ?? []);
      const userName = before ? before.user_name : await freeUserName(deriveUserName(firstName, lastName));

      const issues = userSaveIssues(actor, { firstName, lastName, userName, email, roles, admin_tags: adminTags });
      const firstIssue = issues[0];
      if (firstIssue) throw invalid(firstIssue.message, issues);
      const scoped = saveScopeError(actor, before ? scopeOf(before) : null, {
        _id: before?.id ?? '',
        roles,
        admin_tags: adminTags,
      });
      if (scoped) throw forbidden(scoped);
      const isActive = body.isActive ?? before?.is_active ?? true;
      if (before && before.id === actor._id && !isActive) throw forbidden(SCOPE_MESSAGES.self);
      await checkBadges(adminTags, projectTags);
      const sameEmail = await repo.byEmail(email);
      if (sameEmail && sameEmail.id !== before?.id) throw conflict('A user with this email address already exists.');

      const effects = roleChangeEffects(roles);
      const unrestrictedUpload = effects.unrestrictedUpload
        ? true
        : (body.unrestrictedUpload ?? (before?.roles.includes('user') ? before.unrestricted_upload : false));
      const assignments = effects.clearPipelines
        ? []
        : body.pipelinePermissions
          ? await assignmentsFrom(body.pipelinePermissions)
          : null;
      const fields = {
        first_name: firstName,
        last_name: lastName,
        email,
        service: (body.service ?? before?.service ?? '').trim(),
        roles,
        is_active: isActive,
        unrestricted_upload: unrestrictedUpload,
        is_no_code: body.isNoCode ?? before?.is_no_code ?? false,
        admin_tags: adminTags,
        project_tags: projectTags,
      };

      let row: UserRow | undefined;
      try {
        row = before
          ? await repo.update(before.id, fields)
          : await repo.insert({
              id: newId(),
              user_name: userName,
              password_hash: null,
              avatar: null,
              tfa_secret: null,
              last_seen_at: null,
              created_by: actor._id,
              ...fields,
            });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('A user with this user name or email address already exists.');
        throw err;
      }
      if (!row) throw notFound('User not found.');
      if (assignments) await repo.replaceAssignments(row.id, assignments);
      if (before?.is_active && !row.is_active) await accounts.revokeUserSessions(row.id);
      audit(actor, before ? 'update' : 'create', [row.id]);
      if (!before) await accounts.sendPasswordLink(row, 'create');
      return { user: toManaged(row, await repo.assignments([row.id])), created: !before };
    },

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

    /** The transfer view: every pipeline (one per family) and the user's assignments with their active flags. */
    async pipelinesFor(caller: AuthContext, id: string): Promise<PipelinesForAnswer> {
      const actor = await actorOf(caller);
      const user = await repo.byId(id);
      if (!user) throw notFound('User not found.');
      if (!canSeeUser(actor, scopeOf(user))) throw forbidden(SCOPE_MESSAGES.outOfScope);
      const families = [...(await pipelines.assignable())].sort(byName);
      const active = new Map((await repo.assignments([user.id])).map((a) => [a.pipeline_family, a.is_active]));
      return {
        userPipelines: families.filter((p) => active.has(p._id)).map((p) => ({ ...p, isActive: active.get(p._id) ?? false })),
        availablePipelines: families,
      };
    },
  };
}

export type UserAdminService = ReturnType<typeof userAdminService>;

/** The answer's message for a save. */
export function saveMessage(created: boolean): string {
  return created ? USER_MESSAGES.created : USER_MESSAGES.updated;
}
