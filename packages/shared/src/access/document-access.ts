/** A tag inside a document's badge expression: its id, or an object carrying it. */
export type TagRef = string | { _id: string };

/** A badge expression: alternatives (groups), each needing all of its tags. */
export type TagGroups = readonly (readonly TagRef[])[];

export type DocumentAction = 'read' | 'write' | 'read||write';

/** The user as the check sees it (docs/product.md §2.5). */
export interface AccessUser {
  roles: readonly (string | { name: string })[];
  project_tags: readonly TagRef[];
}

/** The document as the check sees it (docs/product.md §18.4). */
export interface AccessDocument {
  tags?: { read?: TagGroups | null; write?: TagGroups | null } | null;
  /** The versions of the document, when it is versioned. */
  versions?: readonly { vLocked: boolean }[] | null;
}

export interface AccessOptions {
  /** When on, write is refused to non-super-admins once any version of the document is locked. */
  lockedOnly?: boolean;
}

const idOf = (t: TagRef) => (typeof t === 'string' ? t : t._id);

/** True when the user's project badges satisfy the expression; no group (or only empty ones) means open. */
export function satisfiesTags(userTags: readonly TagRef[], groups: TagGroups | null | undefined): boolean {
  const held = new Set(userTags.map(idOf));
  const real = (groups ?? []).filter((g) => g.length > 0);
  if (real.length === 0) return true;
  return real.some((group) => group.every((t) => held.has(idOf(t))));
}

/** A user's check, prepared once (their roles and badges) and then applied to any number of documents. */
export type DocumentCheck = (doc: AccessDocument, action: DocumentAction) => boolean;

/**
 * The document access check of docs/product.md §2.5, prepared for one user: no user is denied; a
 * super-admin passes; otherwise a document without tags for the action is open, one with tags needs
 * every tag of at least one group; write also needs read (docs/decisions.md, "Write implies
 * read"), so `read||write` is read; with `lockedOnly`, write is refused when a version of the
 * document is locked.
 */
export function documentCheckOf(user: AccessUser | null | undefined, options: AccessOptions = {}): DocumentCheck {
  if (!user) return () => false;
  if (user.roles.some((r) => (typeof r === 'string' ? r : r.name) === 'super-admin')) return () => true;
  const held = new Set(user.project_tags.map(idOf));
  const satisfied = (groups: TagGroups | null | undefined) => {
    const real = (groups ?? []).filter((g) => g.length > 0);
    return real.length === 0 || real.some((group) => group.every((t) => held.has(idOf(t))));
  };
  const read = (doc: AccessDocument) => satisfied(doc.tags?.read);
  const write = (doc: AccessDocument) => {
    // A caller who may not read a document may not overwrite or delete it either.
    if (!read(doc)) return false;
    if (options.lockedOnly && (doc.versions ?? []).some((v) => v.vLocked)) return false;
    return satisfied(doc.tags?.write);
  };
  return (doc, action) => {
    if (action === 'read') return read(doc);
    if (action === 'write') return write(doc);
    return read(doc) || write(doc);
  };
}

/** The document access check for one document (see `documentCheckOf`). */
export function canAccessDocument(
  user: AccessUser | null | undefined,
  doc: AccessDocument,
  action: DocumentAction,
  options: AccessOptions = {},
): boolean {
  return documentCheckOf(user, options)(doc, action);
}

/** The check applied to a document and every folder above it: all must pass. */
export function canAccessPath(
  user: AccessUser | null | undefined,
  chain: readonly AccessDocument[],
  action: DocumentAction,
  options: AccessOptions = {},
): boolean {
  if (!user) return false;
  const check = documentCheckOf(user, options);
  return chain.every((doc) => check(doc, action));
}

/** A document with the folders above it (nearest first), as its inherited badges are checked. */
export interface AccessItem extends AccessDocument {
  above: readonly { tags?: AccessDocument['tags'] }[];
}

/**
 * The check of a document and of every folder above it: the document's own badges, and each
 * folder's for the same action (a folder's versions never count: the locked-only rule is the document's).
 */
export function canAccessItem(
  user: AccessUser | null | undefined,
  item: AccessItem,
  action: DocumentAction,
  options: AccessOptions = {},
): boolean {
  const check = documentCheckOf(user, options);
  return check(item, action) && item.above.every((folder) => check({ tags: folder.tags }, action));
}
