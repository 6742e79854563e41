import type { AccessItem, DocumentAction } from '@gdb/shared/access/document-access';
import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';

type Tags = { read?: readonly (readonly string[])[] | null; write?: readonly (readonly string[])[] | null } | null;

/** A folder as the check walks the chain above a document: its parent and its own badges. */
export interface AccessFolder {
  id: string;
  parent_id: string | null;
  tags: Tags;
}

/** A document as the check sees it: its folder (null: the root of its kind), its badges and, for the locked-only rule, its versions. */
export interface AccessedDocument {
  folder: string | null;
  tags: Tags;
  versions?: readonly { vLocked: boolean }[];
}

/** A document another one names, as the read check sees it: its id, folder and badges. */
export interface ReferencedDocument extends AccessedDocument {
  id: string;
}

/** Where a document names another: the field's path (`inputs[0].inputSchema`), the kind and id it names. */
export interface Reference {
  path: string;
  kind: FolderKind;
  id: string;
}

/**
 * The caller's document access (docs/product.md §2.5), prepared once per call: their badges, and
 * each kind's folders loaded the first time a document of that kind is checked, so a list of any
 * length costs one read of the folders.
 */
export interface CallerAccess {
  /** True when nothing is ever refused (a super-admin). */
  readonly everything: boolean;
  /** The check of an item whose folder chain the caller already holds. */
  allows(action: DocumentAction, item: AccessItem): boolean;
  /** Whether the caller may act on this document of `kind`, its folders included. */
  may(action: DocumentAction, kind: FolderKind, doc: AccessedDocument): Promise<boolean>;
  /** The documents the caller may act on, in their order. */
  filter<T>(action: DocumentAction, kind: FolderKind, docs: readonly T[], docOf: (d: T) => AccessedDocument): Promise<T[]>;
  /** Throws 403 (`message`) when the caller may not act on the document. */
  assert(action: DocumentAction, kind: FolderKind, doc: AccessedDocument, message?: string): Promise<void>;
}

/** Prepares the caller's document access; no caller (null) may do nothing. */
export type DocumentAccess = (auth: AuthContext | null) => Promise<CallerAccess>;
