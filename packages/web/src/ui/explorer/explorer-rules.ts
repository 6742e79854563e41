import { canAccessPath } from '@gdb/shared/access/document-access';
import type { FolderKind, TreeNode } from '@gdb/shared/folders/folders.schemas';
import type { DropPosition } from '../tree/tree-rows.ts';
import { chainOf, isRoot, isWithin, type TreeIndex } from './tree-model.ts';

/** The user as the explorer sees them: role names and the ids of their project badges. */
export interface ExplorerUser {
  roles: readonly string[];
  tags: readonly string[];
}

export type MenuAction =
  | 'chooseVersion'
  | 'newDocument'
  | 'newFolder'
  | 'renameFolder'
  | 'deleteFolder'
  | 'deleteDocument'
  | 'moveUp'
  | 'moveDown'
  | 'manageBadges';

/** What the page hosting the explorer offers: a document is created by its own editor. */
export interface MenuOptions {
  canCreateDocument: boolean;
}

const has = (user: ExplorerUser, ...roles: string[]) => user.roles.some((r) => roles.includes(r));

/** Admins and super-admins see badge expressions and manage badges. */
export const seesBadges = (user: ExplorerUser) => has(user, 'admin', 'super-admin');

/** Managers and super-admins change folders and delete documents. */
const changesFolders = (user: ExplorerUser) => has(user, 'manager', 'super-admin');

/**
 * Write permission on a node: as the server says it (its badges, every folder's above it, and no
 * write on a read-only document); for a tree that does not say, through the badges of the node and
 * of every folder above it.
 */
function canWrite(user: ExplorerUser, index: TreeIndex, node: TreeNode): boolean {
  return node.write_access ?? canAccessPath({ roles: user.roles, project_tags: user.tags }, chainOf(index, node), 'write');
}

/**
 * True when the user reads the node now and would not once it carries these badges: no read group
 * of it (or of a folder above it) is one they hold. Super-admins never lose it.
 */
export function losesRead(user: ExplorerUser, index: TreeIndex, node: TreeNode, tags: TreeNode['tags']): boolean {
  const holder = { roles: user.roles, project_tags: user.tags };
  const chain = chainOf(index, node);
  const after = [{ ...node, tags }, ...chain.slice(1)];
  return canAccessPath(holder, chain, 'read') && !canAccessPath(holder, after, 'read');
}

/** Asked before a badge change takes the user's own read access away. */
export const losesReadQuestion = (label: string) =>
  `After this change you can no longer read ${label}: you hold none of its read badge groups, so it leaves your tree. Save anyway?`;

/** Said once a node's badges are saved. */
export const badgesSaved = (label: string) => `Badges of ${label} saved`;

/** The folder a node stands for when something is created or dropped at it: itself, or a leaf's parent. */
export function folderAt(index: TreeIndex, node: TreeNode): TreeNode | null {
  return node.type === 'folder' ? node : (index.parentOf.get(node.value) ?? null);
}

/**
 * Where "Move up" takes a node: the folder above its folder. Where "Move down" takes it: the
 * nearest folder beside it, the one listed before it first.
 */
export function moveTarget(index: TreeIndex, node: TreeNode, direction: 'up' | 'down'): TreeNode | null {
  const parent = index.parentOf.get(node.value);
  if (!parent) return null;
  if (direction === 'up') return index.parentOf.get(parent.value) ?? null;
  const siblings = parent.children.filter((c) => c.type === 'folder' && c.value !== node.value);
  const at = parent.children.indexOf(node);
  const before = siblings.filter((c) => parent.children.indexOf(c) < at);
  return before.at(-1) ?? siblings[0] ?? null;
}

/** Whether the node may be dragged: a document with write permission; a folder (not a root) by a manager or super-admin with it. */
export function canDrag(user: ExplorerUser, index: TreeIndex, node: TreeNode): boolean {
  if (node.type === 'folder' && (isRoot(index, node) || !changesFolders(user))) return false;
  return canWrite(user, index, node);
}

/**
 * The folder a drop places the item in, or null when the drop is refused: on or beside a leaf,
 * the leaf's folder (inside a leaf is refused); before or after a folder, that folder's parent;
 * inside a folder, that folder. Write permission is needed on the item and on the destination;
 * a folder never goes into itself or below itself, and a drop that moves nothing is refused.
 */
export function dropDestination(
  user: ExplorerUser,
  index: TreeIndex,
  item: TreeNode,
  target: TreeNode,
  position: DropPosition,
): TreeNode | null {
  if (position === 'inside' && target.type === 'leaf') return null;
  const destination = position === 'inside' ? target : (index.parentOf.get(target.value) ?? null);
  if (destination?.type !== 'folder') return null;
  if (!canDrag(user, index, item)) return null;
  if (item.type === 'folder' && isWithin(index, destination, item)) return null;
  if (index.parentOf.get(item.value)?.value === destination.value) return null;
  return canWrite(user, index, destination) ? destination : null;
}

/**
 * The node menu: shown for folders, for leaves with more than one version, or when the badges
 * give write permission. Choose version on a leaf with more than one version; New {kind} when a
 * leaf has more than one version or with write permission; New folder with write permission on
 * the folder; Rename and Delete folder for managers and super-admins, never on a root; Delete
 * {kind} on a leaf with write permission; Manage badges for admins and super-admins.
 */
export function menuActions(user: ExplorerUser, index: TreeIndex, node: TreeNode, options: MenuOptions): MenuAction[] {
  const write = canWrite(user, index, node);
  const folder = node.type === 'folder';
  const several = !folder && node.versions.length > 1;
  if (!folder && !several && !write) return [];
  const root = isRoot(index, node);
  const actions: MenuAction[] = [];
  if (several) actions.push('chooseVersion');
  if (options.canCreateDocument && (folder ? write : several || write)) actions.push('newDocument');
  if (folder && write) actions.push('newFolder');
  if (folder && write && !root && changesFolders(user)) actions.push('renameFolder', 'deleteFolder');
  if (!folder && write && changesFolders(user)) actions.push('deleteDocument');
  for (const [direction, action] of [
    ['up', 'moveUp'],
    ['down', 'moveDown'],
  ] as const) {
    const to = moveTarget(index, node, direction);
    if (to && dropDestination(user, index, node, to, 'inside')) actions.push(action);
  }
  if (seesBadges(user)) actions.push('manageBadges');
  return actions;
}

/** The menu's words for a kind. */
export const KIND_LABELS: Readonly<Record<FolderKind, string>> = {
  pipeline: 'pipeline',
  schema: 'schema',
  component: 'component',
  sdk: 'sdk',
};

export function menuLabel(action: MenuAction, kind: FolderKind): string {
  const k = KIND_LABELS[kind];
  switch (action) {
    case 'chooseVersion':
      return 'Choose version';
    case 'newDocument':
      return `New ${k}`;
    case 'newFolder':
      return 'New folder';
    case 'renameFolder':
      return 'Rename folder';
    case 'deleteFolder':
      return 'Delete folder';
    case 'deleteDocument':
      return `Delete ${k}`;
    case 'moveUp':
      return 'Move up';
    case 'moveDown':
      return 'Move down';
    case 'manageBadges':
      return 'Manage badges';
  }
}

/** The delete confirmations, word for word. */
export function deleteQuestion(kind: FolderKind, node: TreeNode): string {
  if (node.type === 'folder') return `Delete folder ${node.label} ?`;
  const what = `Delete ${KIND_LABELS[kind]} [${node.label}]`;
  return kind === 'pipeline' ? `${what} and all its child pipeline ?` : `${what} ?`;
}

/** A badge expression as text: groups joined by '|', badges in a group by '&'; unknown ids as they are. */
export function tagExpression(groups: readonly (readonly string[])[], names: ReadonlyMap<string, string>): string {
  return groups
    .filter((g) => g.length > 0)
    .map((g) => {
      const inner = g.map((id) => names.get(id) ?? id).join(' & ');
      return g.length > 1 && groups.length > 1 ? `(${inner})` : inner;
    })
    .join(' | ');
}
