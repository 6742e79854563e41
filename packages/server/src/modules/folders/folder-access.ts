import { hasAnyRole } from '@gdb/shared/auth/roles';
import { FOLDER_KIND_ROLES, FOLDER_MESSAGES, type FolderKind, freeName } from '@gdb/shared/folders/folders.schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.ts';
import { folderItem } from './folder-tree.ts';
import type { FolderRow, foldersRepo } from './folders.repo.ts';
import type { DocumentAccessHook, DocumentAccessItem } from './folders.types.ts';

/** How often a name taken meanwhile by another call is chosen again. */
const NAME_TRIES = 3;

/** The checks every folder change goes through: kind roles, the folder itself, the badges, and a free name. */
export function folderAccess(repo: ReturnType<typeof foldersRepo>, documentAccess: DocumentAccessHook) {
  function assertKind(auth: AuthContext, kind: FolderKind): void {
    if (!hasAnyRole(auth.roles, FOLDER_KIND_ROLES[kind])) throw forbidden();
  }

  async function load(id: string): Promise<FolderRow> {
    const row = isId(id) ? await repo.byId(id) : undefined;
    if (!row) throw notFound(FOLDER_MESSAGES.notFound);
    return row;
  }

  /** Every folder of the kind by id, for the chains above a folder. */
  async function foldersById(kind: FolderKind): Promise<Map<string, FolderRow>> {
    return new Map((await repo.ofKind(kind)).map((f) => [f.id, f]));
  }

  async function assertWrite(auth: AuthContext, item: DocumentAccessItem, message: string = FOLDER_MESSAGES.notAllowed) {
    if (!(await documentAccess(auth))('write', item)) throw forbidden(message);
  }

  /** Writes `name` (numbered when taken under the parent) through `store`, choosing again when another call took it meanwhile. */
  async function withFreeName<T>(
    parentId: string,
    name: string,
    except: string | undefined,
    store: (name: string) => Promise<T>,
  ) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await store(freeName(name, await repo.namesUnder(parentId, except)));
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= NAME_TRIES) throw error;
      }
    }
  }

  /** A folder the caller may change: of a kind they reach, not a root (`rootMessage`), writable by the badges. */
  async function changeable(auth: AuthContext, id: string, rootMessage: string) {
    const folder = await load(id);
    assertKind(auth, folder.kind);
    if (folder.parent_id === null) throw forbidden(rootMessage);
    const byId = await foldersById(folder.kind);
    await assertWrite(auth, folderItem(byId, folder));
    return { folder, byId };
  }

  /** A destination folder of this kind the caller may write into. */
  async function destination(auth: AuthContext, kind: FolderKind, id: string) {
    const target = await load(id);
    if (target.kind !== kind) throw badRequest(FOLDER_MESSAGES.otherKind);
    const byId = await foldersById(kind);
    await assertWrite(auth, folderItem(byId, target));
    return { target, byId };
  }

  return { load, foldersById, assertKind, assertWrite, withFreeName, changeable, destination };
}
