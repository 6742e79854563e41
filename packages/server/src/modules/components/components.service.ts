import type { Component, ComponentListEntry } from '@gdb/shared/components/components.schemas';
import type { ComponentHierarchy, Usage } from '@gdb/shared/components/hierarchy.schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import { VERSION_MESSAGES } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/errors.ts';
import { ACCESS_MESSAGES, type DocumentAccess } from '../access/access.service.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import { type Body, sameSet, toComponent } from './component-fields.ts';
import { componentHierarchy, componentUsages } from './component-hierarchy.ts';
import {
  assertClosureReadable,
  type ComponentClosure,
  componentReferences,
  type ReferenceReads,
} from './component-references.ts';
import { componentWrites, STALE } from './component-writes.ts';
import { type ComponentRow, componentsRepo } from './components.repo.ts';
import { testLogStream } from './test-logs.live.ts';
import { type TestRunSubject, testRunsRepo } from './test-runs.repo.ts';

export type { ReferenceReads } from './component-references.ts';

/** A component as the document access check sees it: its folder and badges. */
const accessed = (row: { folder_id: string | null; tags: ComponentRow['tags'] }) => ({ folder: row.folder_id, tags: row.tags });

/** Components: reusable blocks of code or of instances joined by links (docs/product.md §16). */
export function componentsService(
  ctx: AppContext,
  versions: Pick<VersionsService, 'remove' | 'assertCanWrite' | 'usedBy' | 'openIds'>,
  access: DocumentAccess,
  reads: ReferenceReads,
) {
  const repo = componentsRepo(ctx.db.kysely);

  async function load(id: string): Promise<ComponentRow> {
    const row = isId(id) ? await repo.byId(id) : undefined;
    if (!row) throw notFound('Document not found');
    return row;
  }

  /** One version the viewer may read, as stored. */
  async function readable(id: string, viewer: AuthContext): Promise<ComponentRow> {
    const row = await load(id);
    await (await access(viewer)).assert('read', 'component', accessed(row), ACCESS_MESSAGES.read);
    return row;
  }

  const { fieldsOf, firstVersion, written } = componentWrites(ctx, repo, componentReferences(repo, reads));

  return {
    /**
     * A test run's log lines sent on the live channel (`testLogs`, by the id the editor gave the run)
     * to the caller and super-admins; an id already taken is refused. The run is a component's
     * (this module's editor) or an SDK function's (the SDK editor's, which records its runs here).
     */
    async testLogs(runId: string, caller: AuthContext, subject: TestRunSubject) {
      if (!(await testRunsRepo(ctx.db.kysely).claim(runId, caller.userId, subject))) {
        throw conflict('This test run id is in use.');
      }
      return testLogStream(ctx.db.kysely, { runId, userId: caller.userId }, ctx.log);
    },
    /** The component versions whose code lists this SDK function version, by name. */
    usingSdkFunction: (id: string): Promise<{ name: string; version: number }[]> => repo.usingSdkFunction(id),
    /** One component version the viewer may read. */
    async find(id: string, viewer: AuthContext): Promise<Component> {
      return toComponent(await readable(id, viewer));
    },

    /** The dependency hierarchy of a component version the viewer may read: only what the viewer may read in it. */
    async hierarchy(id: string, viewer: AuthContext): Promise<ComponentHierarchy> {
      return componentHierarchy(viewer, await readable(id, viewer), { repo, versions });
    },

    /** The components and pipelines using a component version the viewer may read ('Usages'), those the viewer may read. */
    async usages(id: string, viewer: AuthContext): Promise<Usage[]> {
      await readable(id, viewer);
      return componentUsages(viewer, id, versions);
    },

    /** The component versions among these ids that exist and the viewer may read, in the order asked. */
    async many(ids: readonly string[], viewer: AuthContext): Promise<Component[]> {
      const found = await repo.byIds(sameSet(ids.filter(isId)));
      const rows = await (await access(viewer)).filter('read', 'component', found, accessed);
      const byId = new Map(rows.map((r) => [r.id, toComponent(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** The component versions among these ids that exist, whoever asks (the runtime builds programs for nobody), in the order asked. */
    async byIds(ids: readonly string[]): Promise<Component[]> {
      const byId = new Map((await repo.byIds(sameSet(ids.filter(isId)))).map((r) => [r.id, toComponent(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /**
     * Refuses (403) a test run of a component the viewer may not make: the component, or a
     * document it names at any depth (instances, ports' data models and their `$ref`s, SDK
     * functions), closed to them; the refusal names the field, not the closed document.
     */
    async assertRunnable(viewer: AuthContext, closure: ComponentClosure & { root: Component }): Promise<void> {
      const caller = await access(viewer);
      await caller.assert('read', 'component', { folder: closure.root.folder, tags: closure.root.tags }, ACCESS_MESSAGES.read);
      await assertClosureReadable(caller, closure);
    },

    /** Every component version the caller may read, for pickers, by name then version. */
    async list(viewer: AuthContext): Promise<ComponentListEntry[]> {
      const rows = await (await access(viewer)).filter('read', 'component', await repo.list(), accessed);
      return rows.map((r) => ({
        _id: r.id,
        familyId: r.family_id,
        name: r.name,
        version: r.version,
        vLocked: r.v_locked,
        kind: r.kind,
        folder: r.folder_id,
        description: r.description,
      }));
    },

    /**
     * Creates a component (a name and folder are enough) or saves a draft version's full body;
     * links take the data models of the ports they join, and a save made on an older copy
     * than the stored one is refused.
     */
    async save(auth: AuthContext, body: Body): Promise<Component> {
      const userId = auth.userId;
      const caller = await access(auth);
      if (!body._id) {
        if (body.sys_version !== undefined) throw badRequest(VERSION_MESSAGES.missingId);
        await caller.assert('write', 'component', { folder: body.folder ?? null, tags: null }, ACCESS_MESSAGES.write);
        const fields = await fieldsOf(body, null);
        return written(caller, fields, (trx) => componentsRepo(trx).insert(firstVersion(fields.columns, userId)));
      }
      if (body.sys_version === undefined) throw badRequest(VERSION_MESSAGES.missingSysVersion);
      const before = await load(body._id);
      // The version engine's write check: read-only, locked, the badges and, with the locked-only rule, the family's versions.
      await versions.assertCanWrite(auth, 'component', before, 'edit');
      if (body.folder != null && body.folder !== before.folder_id) {
        await caller.assert('write', 'component', { folder: body.folder, tags: null }, ACCESS_MESSAGES.write);
      }
      if (body.sys_version !== before.sys_version) throw conflict(STALE);
      const fields = await fieldsOf(body, toComponent(before));
      const sysVersion = before.sys_version;
      return written(caller, fields, (trx) =>
        componentsRepo(trx).update(before.id, sysVersion, { ...fields.columns, updated_by: userId }),
      );
    },

    /** Creates a component for the server itself (the demo content), which acts for no caller. */
    async create(body: Body): Promise<Component> {
      return toComponent(await repo.insert(firstVersion((await fieldsOf(body, null)).columns, null)));
    },

    /** Deletes a draft version that nothing (a component, a pipeline) points at, through the version engine. */
    async remove(auth: AuthContext, id: string): Promise<{ _id: string }> {
      await versions.remove('component', auth, id);
      return { _id: id };
    },
  };
}

export type ComponentsService = ReturnType<typeof componentsService>;
