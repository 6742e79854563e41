import { CODES } from '@gdb/shared/api/envelope';
import { manageUserError, type ScopeActor, type ScopeTarget } from '@gdb/shared/users/user-scope';
import type { AssignablePipeline, ManagedUser, PasswordMail } from '@gdb/shared/users/users.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound, unauthorized } from '../../platform/http/errors.ts';
import type { UserRow, usersRepo } from './users.repo.ts';

export type UsersRepo = ReturnType<typeof usersRepo>;
type Assignment = { user_id: string; pipeline_family: string; is_active: boolean };

export const scopeOf = (row: UserRow): ScopeTarget => ({ _id: row.id, roles: row.roles, admin_tags: row.admin_tags });
export const unique = (ids: readonly string[]) => [...new Set(ids)];

export function toManaged(row: UserRow, assignments: readonly Assignment[]): ManagedUser {
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

/** The acting admin, the users an action names (checked against the admin-badge scope) and the audit line. */
export function adminAccess(ctx: AppContext, repo: UsersRepo) {
  return {
    audit: (actor: ScopeActor, action: string, ids: readonly string[]) =>
      ctx.log.info({ actorId: actor._id, action, userIds: ids }, 'user management'),

    /** The acting user, with the project badges it holds (the only ones it may give). */
    async actorOf(caller: AuthContext): Promise<ScopeActor & { project_tags: readonly string[] }> {
      const row = await repo.byId(caller.userId);
      if (!row) throw unauthorized(CODES.badToken, 'Invalid token.');
      return { _id: row.id, roles: row.roles, admin_tags: row.admin_tags, project_tags: row.project_tags };
    },

    /** The users an action names, each checked against the actor's scope. */
    async targets(actor: ScopeActor, ids: readonly string[], selfAllowed: boolean): Promise<UserRow[]> {
      const rows = await repo.byIds(unique(ids));
      if (rows.length !== unique(ids).length) throw notFound('User not found.');
      for (const row of rows) {
        const refused = manageUserError(actor, scopeOf(row), selfAllowed);
        if (refused) throw forbidden(refused);
      }
      return rows;
    },
  };
}

export type AdminAccess = ReturnType<typeof adminAccess>;

/** What user management asks of the sign-in side: sessions ended, password links mailed. */
export interface AccountActions {
  revokeUserSessions(userId: string): Promise<void>;
  sendPasswordLink(user: UserRow, purpose: 'create' | 'reset'): Promise<PasswordMail>;
}

/** What user management reads of the pipelines: the families to assign, and the family of an id. */
export interface PipelineFamilies {
  /** The pipeline families the caller may read. */
  assignable(caller: AuthContext): Promise<readonly AssignablePipeline[]>;
  familiesOf(ids: readonly string[]): Promise<ReadonlyMap<string, string>>;
}
