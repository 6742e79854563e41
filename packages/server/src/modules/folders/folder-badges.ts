import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import { DOCUMENT_TAG_MESSAGES, type DocumentTagTarget } from '@gdb/shared/tags/document-tags.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { notFound } from '../../platform/http/errors.ts';
import type { VersionsService } from '../versions/versions.service.ts';
import type { folderAccess } from './folder-access.ts';
import { folderItem } from './folder-tree.ts';
import type { foldersRepo } from './folders.repo.ts';
import type { DocumentAccessHook, DocumentAccessItem } from './folders.types.ts';

type Badges = { tags: { read: string[][]; write: string[][] }; metadataTags: string[] };

/** Setting the badges of a folder or document (docs/product.md §18.4): what the caller may not read is not found, what they may not write refused. */
export function folderBadges(
  repo: ReturnType<typeof foldersRepo>,
  versions: Pick<VersionsService, 'load' | 'setBadges'>,
  checks: ReturnType<typeof folderAccess>,
  documentAccess: DocumentAccessHook,
) {
  async function reachable(auth: AuthContext, item: DocumentAccessItem) {
    const check = await documentAccess(auth);
    if (!check('read', item)) throw notFound(DOCUMENT_TAG_MESSAGES.notFound);
    await checks.assertWrite(auth, item, DOCUMENT_TAG_MESSAGES.notAllowed);
  }

  async function ofFolder(auth: AuthContext, id: string, badges: Badges) {
    const folder = await checks.load(id).catch(() => {
      throw notFound(DOCUMENT_TAG_MESSAGES.notFound);
    });
    checks.assertKind(auth, folder.kind);
    await reachable(auth, folderItem(await checks.foldersById(folder.kind), folder));
    await repo.setTags(folder.id, badges.tags, badges.metadataTags);
    return 0;
  }

  async function ofDocument(auth: AuthContext, kind: FolderKind, id: string, badges: Badges) {
    checks.assertKind(auth, kind);
    const row = await versions.load(kind, id).catch(() => {
      throw notFound(DOCUMENT_TAG_MESSAGES.notFound);
    });
    const byId = await checks.foldersById(kind);
    const root = [...byId.values()].find((f) => f.parent_id === null);
    const home = row.folder_id && byId.has(row.folder_id) ? byId.get(row.folder_id) : root;
    const above = home ? [{ id: home.id, tags: home.tags }, ...folderItem(byId, home).above] : [];
    const tags = { read: row.tags?.read ?? [], write: row.tags?.write ?? [] };
    await reachable(auth, { kind, type: 'leaf', id: row.id, tags, metadataTags: row.metadata_tags, above });
    return versions.setBadges(kind, auth, row.id, badges);
  }

  return {
    /** Sets the read, write and metadata badges of a folder, or of every version of a document; answers how many versions took them. */
    setBadges: (auth: AuthContext, type: DocumentTagTarget, id: string, badges: Badges): Promise<number> =>
      type === 'folder' ? ofFolder(auth, id, badges) : ofDocument(auth, type, id, badges),
  };
}
