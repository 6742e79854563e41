import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';

type Badges = { read: string[][]; write: string[][] };

/** A folder or document as the access check sees it: its own badges and those of the folders above it. */
export interface DocumentAccessItem {
  kind: FolderKind;
  type: 'folder' | 'leaf';
  id: string;
  tags: Badges;
  metadataTags: string[];
  /** The folders above it, nearest first, up to the root. */
  above: { id: string; tags: Badges }[];
  /** A document's name: the system data models are written by super-admins only. */
  name?: string;
  /** A document's versions, for the locked-only rule of the write check. */
  versions?: readonly { vLocked: boolean }[];
}

/** The caller's answer for one folder or document and one action. */
type DocumentAccessCheck = (action: 'read' | 'write', item: DocumentAccessItem) => boolean;

/**
 * The one place the explorer asks whether the caller may read or write a folder or document
 * (docs/product.md §2.5, §18.3), prepared once per call (the caller's badges): the tree leaves out
 * what it answers false to read, and every change is refused (403) where it answers false to write.
 */
export type DocumentAccessHook = (auth: AuthContext) => Promise<DocumentAccessCheck>;
