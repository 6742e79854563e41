import type { UserSaveBody } from '@gdb/shared/users/users.schemas';
import type { VersionDoc, VersionKind } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { UserAdminService } from '../users/user-admin.service.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import type { ActivityInput } from './activity.service.ts';

type Recorder = (inputs: readonly ActivityInput[]) => Promise<void>;

const actorOf = (auth: AuthContext) => ({ id: auth.userId, name: auth.userName });
const documentOf = (doc: VersionDoc) => ({
  kind: doc.kind,
  id: doc._id,
  familyId: doc.familyId,
  name: doc.name,
  version: doc.version,
});

/**
 * The version engine with its writes on record: who saved a draft, locked a version, made a new
 * one, updated dependencies or deleted a draft, of which document. Every versioned kind (schemas,
 * components, SDK functions, pipelines) writes through it.
 */
export function recordedVersions(versions: VersionsService, record: Recorder): VersionsService {
  const docsOf = async (kind: VersionKind, ids: readonly string[]) => {
    const docs: VersionDoc[] = [];
    for (const id of ids) docs.push(versions.describe(kind, await versions.load(kind, id)));
    return docs;
  };
  const said = (auth: AuthContext, kind: ActivityInput['kind'], docs: readonly VersionDoc[], details = {}) =>
    record(docs.map((d) => ({ kind, actor: actorOf(auth), document: documentOf(d), details })));
  return {
    ...versions,
    async saveDraft(kind, auth, id, sysVersion, columns) {
      const saved = await versions.saveDraft(kind, auth, id, sysVersion, columns);
      await said(auth, 'document-saved', [versions.describe(kind, saved)]);
      return saved;
    },
    async lock(kind, auth, id, force) {
      const answer = await versions.lock(kind, auth, id, force);
      await said(auth, 'document-locked', answer.locked);
      return answer;
    },
    async lockVersions(kind, auth, rows, force) {
      const answer = await versions.lockVersions(kind, auth, rows, force);
      await said(auth, 'document-locked', answer.locked);
      return answer;
    },
    async newVersion(kind, auth, id) {
      const doc = await versions.newVersion(kind, auth, id);
      await said(auth, 'document-versioned', [doc]);
      return doc;
    },
    async remove(kind, auth, id) {
      const [doc] = await docsOf(kind, [id]);
      const answer = await versions.remove(kind, auth, id);
      if (doc) await said(auth, 'document-deleted', [doc]);
      return answer;
    },
    async removeDrafts(kind, auth, ids, before) {
      const docs = await docsOf(kind, ids);
      await versions.removeDrafts(kind, auth, ids, before);
      await said(auth, 'document-deleted', docs);
    },
    async update(kind, auth, data) {
      const answer = await versions.update(kind, auth, data);
      const made = await Promise.all(
        answer.success.map(async (s) => ({ s, doc: (await docsOf(kind, [s.newId]).catch(() => []))[0] })),
      );
      await record(
        made.map(({ s, doc }) => ({
          kind: 'document-updated' as const,
          actor: actorOf(auth),
          document: doc ? documentOf(doc) : null,
          details: { name: s.name, from: s.old_version, to: s.new_version },
        })),
      );
      return answer;
    },
  };
}

type UserById = (
  id: string,
) => Promise<{ id: string; user_name: string; roles: string[]; project_tags?: string[]; admin_tags?: string[] } | undefined>;

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** User administration with its changes of roles and badges on record: who changed whose, from what to what. */
export function recordedUserAdmin(userAdmin: UserAdminService, userById: UserById, record: Recorder): UserAdminService {
  return {
    ...userAdmin,
    async save(caller: AuthContext, body: UserSaveBody) {
      const before = body._id ? await userById(body._id) : undefined;
      const answer = await userAdmin.save(caller, body);
      const { user } = answer;
      const roles = user.roles.map((r) => r.name);
      const targetUser = { id: user._id, name: user.userName };
      const changes: ActivityInput[] = [];
      const fromRoles = before?.roles ?? [];
      if (!sameSet(fromRoles, roles)) {
        changes.push({ kind: 'user-roles', actor: actorOf(caller), targetUser, details: { from: fromRoles, to: roles } });
      }
      const badges = { project: user.project_tags, admin: user.admin_tags };
      const fromBadges = { project: before?.project_tags ?? [], admin: before?.admin_tags ?? [] };
      if (!sameSet(fromBadges.project, badges.project) || !sameSet(fromBadges.admin, badges.admin)) {
        changes.push({ kind: 'user-badges', actor: actorOf(caller), targetUser, details: { from: fromBadges, to: badges } });
      }
      await record(changes);
      return answer;
    },
  };
}
