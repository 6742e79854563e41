import { deriveUserName, roleChangeEffects } from '@gdb/shared/users/user-rules';
import {
  manageUserError,
  projectBadgeError,
  SCOPE_MESSAGES,
  type ScopeActor,
  saveScopeError,
  userSaveIssues,
} from '@gdb/shared/users/user-scope';
import type { ManagedUser, PasswordMail, UserSaveBody } from '@gdb/shared/users/users.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { conflict, forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { TagsService } from '../tags/tags.service.ts';
import type { AccountActions, AdminAccess, PipelineFamilies, UsersRepo } from './user-admin.access.ts';
import { scopeOf, toManaged, unique } from './user-admin.access.ts';
import type { UserRow } from './users.repo.ts';

/** What saving a user needs: the users, the badges, the sign-in side, the pipelines and the admin scope. */
interface SaveDeps {
  repo: UsersRepo;
  tags: Pick<TagsService, 'unknownIds'>;
  accounts: AccountActions;
  pipelines: PipelineFamilies;
  access: AdminAccess;
}

/** The derived user name, with a number added when another user has it already. */
async function freeUserName(repo: UsersRepo, base: string): Promise<string> {
  if (!base) return base;
  const taken = new Set(await repo.userNamesLike(base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

async function checkBadges(d: SaveDeps, adminTags: string[], projectTags: string[]): Promise<void> {
  const issues = [
    ...(await d.tags.unknownIds(adminTags, 'group')).map((id) => ({ path: 'admin_tags', message: `Unknown admin badge: ${id}` })),
    ...(await d.tags.unknownIds(projectTags, 'project')).map((id) => ({
      path: 'project_tags',
      message: `Unknown project badge: ${id}`,
    })),
  ];
  const first = issues[0];
  if (first) throw invalid(first.message, issues);
}

/** Pipeline (version or family) ids → family assignments; unknown ids are refused. */
async function assignmentsFrom(d: SaveDeps, permissions: Record<string, { isActive: boolean }>) {
  const ids = Object.keys(permissions);
  const family = await d.pipelines.familiesOf(ids);
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

/** The user before the save (null when creating), checked against the actor's scope. */
async function userBefore(d: SaveDeps, actor: ScopeActor, body: UserSaveBody): Promise<UserRow | null> {
  const before = body._id ? await d.repo.byId(body._id) : null;
  if (body._id && !before) throw notFound('User not found.');
  if (before) {
    const refused = manageUserError(actor, scopeOf(before), true);
    if (refused) throw forbidden(refused);
  }
  return before ?? null;
}

/** The acting user as a save checks it: its admin scope and the project badges it holds. */
type SaveActor = ScopeActor & { project_tags: readonly string[] };

/** The trimmed dialog values, after the dialog rules, the admin-badge scope, the badges and the unique email. */
async function checkedInput(d: SaveDeps, actor: SaveActor, before: UserRow | null, body: UserSaveBody) {
  const firstName = body.firstName.trim();
  const lastName = body.lastName.trim();
  const email = body.email.trim();
  const roles = [...body.roles];
  const adminTags = unique(body.admin_tags ?? before?.admin_tags ?? []);
  const projectTags = unique(body.project_tags ?? before?.project_tags ?? []);
  const userName = before ? before.user_name : await freeUserName(d.repo, deriveUserName(firstName, lastName));

  const issues = userSaveIssues(actor, { firstName, lastName, userName, email, roles, admin_tags: adminTags });
  const firstIssue = issues[0];
  if (firstIssue) throw invalid(firstIssue.message, issues);
  const scoped = saveScopeError(actor, before ? scopeOf(before) : null, {
    _id: before?.id ?? '',
    roles,
    admin_tags: adminTags,
  });
  if (scoped) throw forbidden(scoped);
  const foreign = projectBadgeError(actor, before, { project_tags: projectTags });
  if (foreign) throw forbidden(foreign);
  const isActive = body.isActive ?? before?.is_active ?? true;
  if (before && before.id === actor._id && !isActive) throw forbidden(SCOPE_MESSAGES.self);
  await checkBadges(d, adminTags, projectTags);
  const sameEmail = await d.repo.byEmail(email);
  if (sameEmail && sameEmail.id !== before?.id) throw conflict('A user with this email address already exists.');
  return { firstName, lastName, email, roles, adminTags, projectTags, userName, isActive };
}

type SaveInput = Awaited<ReturnType<typeof checkedInput>>;

/** The columns written, after the role change's effects on upload rights. */
function savedFields(input: SaveInput, before: UserRow | null, body: UserSaveBody) {
  const effects = roleChangeEffects(input.roles);
  const unrestrictedUpload = effects.unrestrictedUpload
    ? true
    : (body.unrestrictedUpload ?? (before?.roles.includes('user') ? before.unrestricted_upload : false));
  return {
    first_name: input.firstName,
    last_name: input.lastName,
    email: input.email,
    service: (body.service ?? before?.service ?? '').trim(),
    roles: input.roles,
    is_active: input.isActive,
    unrestricted_upload: unrestrictedUpload,
    is_no_code: body.isNoCode ?? before?.is_no_code ?? false,
    admin_tags: input.adminTags,
    project_tags: input.projectTags,
  };
}

/** Updates the user, or inserts it created by the actor; a taken user name or email is a conflict. */
async function writeUser(
  d: SaveDeps,
  actor: ScopeActor,
  before: UserRow | null,
  userName: string,
  fields: ReturnType<typeof savedFields>,
): Promise<UserRow> {
  let row: UserRow | undefined;
  try {
    row = before
      ? await d.repo.update(before.id, fields)
      : await d.repo.insert({
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
  return row;
}

/**
 * Creates (no `_id`; mails the create-password link) or updates a user, after the dialog rules,
 * the admin-badge scope, the badges and pipelines named, and unique user name and email.
 */
export async function saveUser(
  d: SaveDeps,
  caller: AuthContext,
  body: UserSaveBody,
): Promise<{ user: ManagedUser; created: boolean; passwordMail?: PasswordMail }> {
  const actor = await d.access.actorOf(caller);
  const before = await userBefore(d, actor, body);
  const input = await checkedInput(d, actor, before, body);
  const fields = savedFields(input, before, body);
  const assignments = roleChangeEffects(input.roles).clearPipelines
    ? []
    : body.pipelinePermissions
      ? await assignmentsFrom(d, body.pipelinePermissions)
      : null;
  const row = await writeUser(d, actor, before, input.userName, fields);
  if (assignments) await d.repo.replaceAssignments(row.id, assignments);
  if (before?.is_active && !row.is_active) await d.accounts.revokeUserSessions(row.id);
  d.access.audit(actor, before ? 'update' : 'create', [row.id]);
  const passwordMail = before ? undefined : await d.accounts.sendPasswordLink(row, 'create');
  return {
    user: toManaged(row, await d.repo.assignments([row.id])),
    created: !before,
    ...(passwordMail ? { passwordMail } : {}),
  };
}
