import { FOLDER_MESSAGES, type Folder, type FolderKind, type TreeNode } from '@gdb/shared/folders/folders.schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Db } from '../../platform/db/index.ts';
import { badRequest, conflict, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import { folderAccess } from './folder-access.ts';
import { folderBadges } from './folder-badges.ts';
import { folderChains } from './folder-chains.ts';
import { buildTree, documentItem } from './folder-tree.ts';
import { type FolderRow, foldersRepo } from './folders.repo.ts';
import type { DocumentAccessHook } from './folders.types.ts';
import { treeSources } from './tree-source.ts';

export type { DocumentAccessHook, DocumentAccessItem } from './folders.types.ts';

const toFolder = (row: FolderRow): Folder => ({ id: row.id, name: row.name, kind: row.kind, parent: row.parent_id });

/** Folders and the explorer trees (docs/product.md §18.3); documents move through the version engine. */
export function foldersService(ctx: AppContext, versions: VersionsService, options: { documentAccess: DocumentAccessHook }) {
  const repo = foldersRepo(ctx.db.kysely);
  const { documentAccess } = options;
  const checks = folderAccess(repo, documentAccess);
  const { assertKind, assertWrite, withFreeName, changeable, destination } = checks;
  const chains = folderChains(ctx.config.sessionCacheMs, (kind) => repo.ofKind(kind));
  /** A write to folders, after which this instance's kept folders are forgotten (whether it succeeded or not). */
  const changing =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await write(...args);
      } finally {
        chains.changed();
      }
    };
  const badges = folderBadges(repo, versions, checks, documentAccess);
  const sources = treeSources({
    folderStamp: (kind) => repo.stamp(kind),
    documentStamp: (kind) => versions.documentsStamp(kind),
    folders: (kind) => repo.ofKind(kind),
    documents: (kind) => versions.documents(kind),
  });

  return {
    /** The kind's tree: its root with every folder and document the caller may read (system data models for super-admins only). */
    async tree(auth: AuthContext, kind: FolderKind): Promise<TreeNode[]> {
      assertKind(auth, kind);
      const [source, check] = await Promise.all([sources(kind), documentAccess(auth)]);
      return buildTree(
        source,
        (item) => check('read', item),
        (item) => check('write', item),
      );
    },

    /**
     * Every folder of a kind with its parent and badges, whoever asks: the chains the document access
     * check walks, kept in memory until a folder changes (`SESSION_CACHE_S` at most).
     */
    chainsOf: (kind: FolderKind) => chains.of(kind),

    /** Hears other instances' folder changes (when folders are kept at all). */
    followChanges: (db: Db, log: FastifyBaseLogger) => (chains.caching ? chains.follow(db, log) : undefined),

    setBadges: changing(badges.setBadges),

    /** A new folder under `parent` (the root when absent); a name taken there gets a number in brackets. */
    create: changing(async (auth: AuthContext, body: { name: string; kind: FolderKind; parent?: string | null | undefined }) => {
      assertKind(auth, body.kind);
      const parentId = body.parent ?? (await repo.root(body.kind)).id;
      const { target } = await destination(auth, body.kind, parentId);
      const row = await withFreeName(target.id, body.name, undefined, (name) =>
        repo.insert({ id: newId(), kind: body.kind, parent_id: target.id, name, created_by: auth.userId }),
      );
      return toFolder(row);
    }),

    /** Renames a folder (not a root); a name taken by a sibling gets a number in brackets. */
    rename: changing(async (auth: AuthContext, body: { id: string; name: string }): Promise<Folder> => {
      const { folder } = await changeable(auth, body.id, FOLDER_MESSAGES.rootRename);
      const parentId = folder.parent_id as string;
      const name = await withFreeName(parentId, body.name, folder.id, async (n) => {
        await repo.update(folder.id, { name: n });
        return n;
      });
      return toFolder({ ...folder, name });
    }),

    /** Moves a folder (not a root) into another of its kind, never into itself or a folder below it. */
    reparent: changing(async (auth: AuthContext, body: { id: string; parentId: string }): Promise<Folder> => {
      const { folder, byId } = await changeable(auth, body.id, FOLDER_MESSAGES.rootMove);
      const { target } = await destination(auth, folder.kind, body.parentId);
      const above = new Set<string>([target.id]);
      for (let at = byId.get(target.id); at?.parent_id && !above.has(at.parent_id); at = byId.get(at.parent_id)) {
        above.add(at.parent_id);
      }
      if (above.has(folder.id)) throw badRequest(FOLDER_MESSAGES.intoItself);
      const name = await withFreeName(target.id, folder.name, folder.id, async (n) => {
        await repo.update(folder.id, { name: n, parent_id: target.id });
        return n;
      });
      return toFolder({ ...folder, name, parent_id: target.id });
    }),

    /**
     * Deletes a folder (never a root) with the folders below it (`withFolders`) and the documents
     * they hold (`withDocuments`); without the flag, holding any is refused (409).
     */
    remove: changing(
      async (auth: AuthContext, body: { id: string; kind: FolderKind; withFolders: boolean; withDocuments: boolean }) => {
        const { folder, byId } = await changeable(auth, body.id, FOLDER_MESSAGES.rootDelete);
        if (folder.kind !== body.kind) throw notFound(FOLDER_MESSAGES.notFound);
        const doomed = subtree(byId, folder.id);
        if (doomed.length > 1 && !body.withFolders) throw conflict(FOLDER_MESSAGES.holdsFolders);
        const inDoomed = new Set(doomed);
        const held = (await versions.documents(folder.kind)).filter((d) => d.folder && inDoomed.has(d.folder));
        if (held.length > 0 && !body.withDocuments) throw conflict(FOLDER_MESSAGES.holdsDocuments);
        // A pipeline goes with its uploads, files, jobs and endpoints: only the pipeline's own delete may do that.
        if (held.length > 0 && folder.kind === 'pipeline') throw conflict(FOLDER_MESSAGES.holdsPipelines);
        const dropFolders = (trx: Parameters<typeof foldersRepo>[0]) => foldersRepo(trx).removeDeepestFirst(doomed);
        if (held.length === 0) {
          await ctx.db.kysely.transaction().execute(dropFolders);
          return { folders: doomed, documents: 0 };
        }
        return { folders: doomed, documents: await versions.removeInFolders(folder.kind, auth, doomed, dropFolders) };
      },
    ),

    /** Moves a document (every version of it) into a folder of its kind. */
    async moveDocument(auth: AuthContext, kind: FolderKind, body: { id: string; parentId: string }) {
      assertKind(auth, kind);
      const { target, byId } = await destination(auth, kind, body.parentId);
      const doc = (await versions.documents(kind)).find((d) => d.versions.some((v) => v._id === body.id));
      const root = [...byId.values()].find((f) => f.parent_id === null);
      if (doc && root) await assertWrite(auth, documentItem(byId, doc, root));
      await versions.moveToFolder(kind, auth, body.id, target.id);
      return { _id: body.id, folder: target.id };
    },
  };
}

/** A folder's id and the ids of every folder below it, parents before children. */
function subtree(byId: ReadonlyMap<string, FolderRow>, id: string): string[] {
  const out = [id];
  for (let i = 0; i < out.length; i += 1) {
    for (const f of byId.values()) if (f.parent_id === out[i]) out.push(f.id);
  }
  return out;
}

export type FoldersService = ReturnType<typeof foldersService>;
