import type { Component, ComponentListEntry } from '@gdb/shared/components/components.schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { conflict, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { ACCESS_MESSAGES, type DocumentAccess } from '../access/access.service.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import { type Body, componentFields, sameSet, toComponent } from './component-fields.ts';
import { type ComponentRow, componentsRepo } from './components.repo.ts';

/** A component as the document access check sees it: its folder and badges. */
const accessed = (row: { folder_id: string | null; tags: ComponentRow['tags'] }) => ({ folder: row.folder_id, tags: row.tags });

/** Components: reusable blocks of code or of instances joined by links (docs/product.md §16). */
export function componentsService(
  ctx: AppContext,
  versions: Pick<VersionsService, 'remove' | 'assertCanWrite'>,
  access: DocumentAccess,
) {
  const repo = componentsRepo(ctx.db.kysely);

  async function load(id: string): Promise<ComponentRow> {
    const row = isId(id) ? await repo.byId(id) : undefined;
    if (!row) throw notFound('Document not found');
    return row;
  }

  const fieldsOf = componentFields(repo);

  /** Stores a body as version 1 of a new family. */
  async function insert(body: Body, userId: string | null): Promise<Component> {
    const id = newId();
    const row = await repo.insert({
      id,
      family_id: id,
      version: 1,
      ...(await fieldsOf(body, null)),
      created_by: userId,
      updated_by: userId,
    });
    return toComponent(row);
  }

  return {
    /** The component versions whose code lists this SDK function version, by name. */
    usingSdkFunction: (id: string): Promise<{ name: string; version: number }[]> => repo.usingSdkFunction(id),
    /** One component version the viewer may read. */
    async find(id: string, viewer: AuthContext): Promise<Component> {
      const row = await load(id);
      await (await access(viewer)).assert('read', 'component', accessed(row), ACCESS_MESSAGES.read);
      return toComponent(row);
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
        await caller.assert('write', 'component', { folder: body.folder ?? null, tags: null }, ACCESS_MESSAGES.write);
        return insert(body, userId);
      }
      const before = await load(body._id);
      // The version engine's write check: read-only, locked, the badges and, with the locked-only rule, the family's versions.
      await versions.assertCanWrite(auth, 'component', before, 'edit');
      if (body.folder != null && body.folder !== before.folder_id) {
        await caller.assert('write', 'component', { folder: body.folder, tags: null }, ACCESS_MESSAGES.write);
      }
      if (body.sys_version !== undefined && body.sys_version !== before.sys_version) {
        throw conflict('This component was saved by someone else since you opened it; reload it.');
      }
      const fields = await fieldsOf(body, toComponent(before));
      const row = await repo.update(before.id, before.sys_version, { ...fields, updated_by: userId });
      if (!row) throw conflict('This component was saved by someone else since you opened it; reload it.');
      return toComponent(row);
    },

    /** Creates a component for the server itself (the demo content), which acts for no caller. */
    create: (body: Body): Promise<Component> => insert(body, null),

    /** Deletes a draft version that nothing (a component, a pipeline) points at, through the version engine. */
    async remove(auth: AuthContext, id: string): Promise<{ _id: string }> {
      await versions.remove('component', auth, id);
      return { _id: id };
    },
  };
}

export type ComponentsService = ReturnType<typeof componentsService>;
