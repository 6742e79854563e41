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

/**
 * The document access check of docs/product.md §2.5: no user is denied; a super-admin passes; otherwise a
 * document without tags for the action is open, one with tags needs every tag of at least one
 * group; with `lockedOnly`, write is refused when a version of the document is locked.
 */
export function canAccessDocument(
  user: AccessUser | null | undefined,
  doc: AccessDocument,
  action: DocumentAction,
  options: AccessOptions = {},
): boolean {
  if (!user) return false;
  const roles = user.roles.map((r) => (typeof r === 'string' ? r : r.name));
  if (roles.includes('super-admin')) return true;
  const read = () => satisfiesTags(user.project_tags, doc.tags?.read);
  const write = () => {
    if (options.lockedOnly && (doc.versions ?? []).some((v) => v.vLocked)) return false;
    return satisfiesTags(user.project_tags, doc.tags?.write);
  };
  if (action === 'read') return read();
  if (action === 'write') return write();
  return read() || write();
}

/** The check applied to a document and every folder above it: all must pass. */
export function canAccessPath(
  user: AccessUser | null | undefined,
  chain: readonly AccessDocument[],
  action: DocumentAction,
  options: AccessOptions = {},
): boolean {
  if (!user) return false;
  return chain.every((doc) => canAccessDocument(user, doc, action, options));
}
