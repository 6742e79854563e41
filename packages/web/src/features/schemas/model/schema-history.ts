// The editor's history: a list of tree snapshots. A new edit after an undo drops the snapshots
// after the current one; the schema has unsaved changes while the current index is not the index
// last saved.
import type { SchemaNode } from '@gdb/shared/schemas/schema-nodes';

/** Snapshots kept; the oldest go first. */
const HISTORY_LIMIT = 200;

export interface History {
  readonly entries: readonly SchemaNode[];
  readonly index: number;
  /** The index of the snapshot last saved; -1 when none of those kept was saved. */
  readonly savedIndex: number;
}

/** A history holding one snapshot: saved (a schema read from the server) or not (a new one). */
export function startHistory(root: SchemaNode, saved = true): History {
  return { entries: [root], index: 0, savedIndex: saved ? 0 : -1 };
}

export const currentTree = (h: History): SchemaNode => h.entries[h.index] as SchemaNode;

/** Records a new snapshot after the current one, dropping any that were undone. */
export function record(h: History, root: SchemaNode): History {
  if (root === currentTree(h)) return h;
  const entries = [...h.entries.slice(0, h.index + 1), root];
  const over = Math.max(0, entries.length - HISTORY_LIMIT);
  const savedIndex = h.savedIndex > h.index ? -1 : h.savedIndex - over;
  return { entries: entries.slice(over), index: entries.length - 1 - over, savedIndex: Math.max(-1, savedIndex) };
}

export const canUndo = (h: History): boolean => h.index > 0;
export const canRedo = (h: History): boolean => h.index < h.entries.length - 1;

export const undo = (h: History): History => (canUndo(h) ? { ...h, index: h.index - 1 } : h);
export const redo = (h: History): History => (canRedo(h) ? { ...h, index: h.index + 1 } : h);

/** True while the current snapshot is not the one last saved. */
export const isDirty = (h: History): boolean => h.index !== h.savedIndex;

/** The current snapshot is now the saved one. */
export const markSaved = (h: History): History => ({ ...h, savedIndex: h.index });
