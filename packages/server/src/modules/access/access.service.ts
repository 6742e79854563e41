import { type AccessItem, type AccessUser, type DocumentAction, documentCheckOf } from '@gdb/shared/access/document-access';
import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import { isSystemSchemaName } from '@gdb/shared/schemas/system-schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { forbidden } from '../../platform/http/errors.ts';
import type {
  AccessedDocument,
  AccessFolder,
  CallerAccess,
  DocumentAccess,
  Reference,
  ReferencedDocument,
} from './access.types.ts';

export type { CallerAccess, DocumentAccess, Reference, ReferencedDocument } from './access.types.ts';

/** The refusals of the document access check. */
export const ACCESS_MESSAGES = {
  read: 'You are not allowed to read this document.',
  write: 'You are not allowed to change this document.',
} as const;

/** The refusal of a reference the caller may not read: it names the field and the id, never the document. */
export const referenceRefused = (ref: Pick<Reference, 'path' | 'id'>) =>
  `You are not allowed to read ${ref.id}, which ${ref.path} refers to.`;

/**
 * Refuses (403) the first reference the caller may not read; `found` holds the documents named
 * that exist, by id (one missing is left to the caller's own rule).
 */
export async function assertReferencesReadable(
  caller: CallerAccess,
  refs: readonly Reference[],
  found: ReadonlyMap<string, ReferencedDocument>,
): Promise<void> {
  if (caller.everything) return;
  for (const ref of refs) {
    const doc = found.get(ref.id);
    if (doc && !(await caller.may('read', ref.kind, doc))) throw forbidden(referenceRefused(ref));
  }
}

/** Where the check reads the caller's roles and project badges, and each kind's folders. */
export interface AccessReads {
  /** The caller's project badges; undefined when the user is gone. */
  badgesOf(auth: AuthContext): Promise<readonly string[] | undefined>;
  foldersOf(kind: FolderKind): Promise<readonly AccessFolder[]>;
}

/** Everything allowed: the caller's access when no check is wired (services built on their own in tests). */
export const allowEverything: CallerAccess = {
  everything: true,
  allows: () => true,
  may: async () => true,
  filter: async (_action, _kind, docs) => [...docs],
  assert: async () => {},
};

/** The verdict of every folder of a kind for one action, each computed once: its own badges and its parent's verdict. */
function folderVerdicts(folders: readonly AccessFolder[], passes: (f: AccessFolder) => boolean) {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const root = folders.find((f) => f.parent_id === null);
  const memo = new Map<string, boolean>();
  const verdict = (id: string): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const chain: AccessFolder[] = [];
    const seen = new Set<string>();
    for (
      let at = byId.get(id);
      at && !memo.has(at.id) && !seen.has(at.id);
      at = at.parent_id ? byId.get(at.parent_id) : undefined
    ) {
      seen.add(at.id);
      chain.push(at);
    }
    const top = chain.at(-1);
    let above = top?.parent_id ? (memo.get(top.parent_id) ?? true) : true;
    for (const f of chain.reverse()) {
      above = above && passes(f);
      memo.set(f.id, above);
    }
    return memo.get(id) ?? true;
  };
  /** A document in no known folder sits in the root. */
  return (folderId: string | null) => {
    const at = folderId && byId.has(folderId) ? folderId : root?.id;
    return at ? verdict(at) : true;
  };
}

/** The document access of docs/product.md §2.5 for each caller: `lockedOnly` refuses writes to documents with a locked version (ACCESS_LOCKED_ONLY). */
export function documentAccessService(reads: AccessReads, options: { lockedOnly?: boolean } = {}): DocumentAccess {
  return async (auth) => {
    if (auth?.roles.includes('super-admin')) return allowEverything;
    const badges = auth ? await reads.badgesOf(auth) : undefined;
    const user: AccessUser | null = auth && badges ? { roles: auth.roles, project_tags: badges } : null;
    const check = documentCheckOf(user, options);
    const loaded = new Map<string, Promise<(folderId: string | null) => boolean>>();
    const folderVerdict = (kind: FolderKind, action: DocumentAction) => {
      const key = `${kind} ${action}`;
      let at = loaded.get(key);
      if (!at) {
        at = reads.foldersOf(kind).then((folders) => folderVerdicts(folders, (f) => check({ tags: f.tags }, action)));
        loaded.set(key, at);
      }
      return at;
    };
    // The verdict of a chain of folders, kept by its nearest folder: the chain above a folder is the same within a call.
    const chains = new Map<string, boolean>();
    const chainAllows = (action: DocumentAction, above: AccessItem['above']) => {
      const nearest = (above[0] as { id?: string } | undefined)?.id;
      const key = nearest && `${action} ${nearest}`;
      const known = key ? chains.get(key) : undefined;
      if (known !== undefined) return known;
      const verdict = above.every((f) => check({ tags: f.tags }, action));
      if (key) chains.set(key, verdict);
      return verdict;
    };
    const may = async (action: DocumentAction, kind: FolderKind, doc: AccessedDocument) =>
      check(doc, action) && (await folderVerdict(kind, action))(doc.folder);
    return {
      everything: false,
      allows: (action, item) => check(item, action) && chainAllows(action, item.above),
      may,
      async filter(action, kind, docs, docOf) {
        if (docs.length === 0) return [];
        const inFolder = await folderVerdict(kind, action);
        return docs.filter((d) => {
          const doc = docOf(d);
          return check(doc, action) && inFolder(doc.folder);
        });
      },
      async assert(action, kind, doc, message) {
        if (!(await may(action, kind, doc))) throw forbidden(message ?? ACCESS_MESSAGES[action === 'write' ? 'write' : 'read']);
      },
    };
  };
}

/** An explorer node as the check sees it: a document's kind, type and name tell a system data model. */
type ExplorerItem = AccessItem & { kind?: FolderKind; type?: 'folder' | 'leaf'; name?: string };

const isSystemDataModel = (item: ExplorerItem) => item.kind === 'schema' && item.type === 'leaf' && isSystemSchemaName(item.name);

type Badged = { id: string; folder_id: string | null; tags: AccessedDocument['tags'] };

/** What the write check reads for the locked-only rule: whether it is on, and the versions of a document's family. */
export interface LockedOnlyReads {
  lockedOnly: boolean;
  versionsOf(kind: FolderKind, id: string): Promise<readonly { vLocked: boolean }[]>;
}

/** The document access as the hooks of the version engine and of the explorer take it. */
export function accessHooks(access: DocumentAccess, locked?: LockedOnlyReads) {
  return {
    /**
     * The version engine's write check: the document's badges and those of the folders above it;
     * with the locked-only rule on, the versions of its family too (read only for callers it may refuse).
     */
    badgeWriteCheck: async (auth: AuthContext, kind: FolderKind, row: Badged) => {
      const caller = await access(auth);
      const versions = locked?.lockedOnly && !caller.everything ? await locked.versionsOf(kind, row.id) : undefined;
      const doc = { folder: row.folder_id, tags: row.tags, ...(versions ? { versions } : {}) };
      await caller.assert('write', kind, doc, ACCESS_MESSAGES.write);
    },
    /** The version engine's read filter: the rows of a kind the caller may read. */
    badgeReadFilter: async <R extends Badged>(auth: AuthContext, kind: FolderKind, rows: readonly R[]) =>
      (await access(auth)).filter('read', kind, rows, (r) => ({ folder: r.folder_id, tags: r.tags })),
    /**
     * The explorer's check, prepared once per call: the system data models are super-admins' alone
     * (only they change them), so for all others they are neither in the tree nor changeable.
     */
    explorerCheck: async (auth: AuthContext) => {
      const caller = await access(auth);
      return (action: DocumentAction, item: ExplorerItem) =>
        !(!caller.everything && isSystemDataModel(item)) && caller.allows(action, item);
    },
  };
}
