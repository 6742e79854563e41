import type { SchemaNode } from '@gdb/shared/schemas/schema-nodes';
import { useCallback, useRef, useState } from 'react';
import type { EditResult } from './model/schema-edit.ts';
import {
  canRedo,
  canUndo,
  currentTree,
  type History,
  isDirty,
  markSaved,
  record,
  redo,
  startHistory,
  undo,
} from './model/schema-history.ts';

interface EditorState {
  history: History;
  selected: string | null;
}

/** The tree being edited, its history and the selected node; edits that the rules refuse answer their error. */
export function useSchemaEditor(initial: SchemaNode) {
  const [state, setState] = useState<EditorState>(() => ({ history: startHistory(initial), selected: initial.id }));
  // The state edits read synchronously, so that a refused edit can answer its error at once.
  const ref = useRef(state);
  const commit = useCallback((next: EditorState) => {
    ref.current = next;
    setState(next);
  }, []);
  const change = useCallback((fn: (s: EditorState) => EditorState) => commit(fn(ref.current)), [commit]);
  const tree = currentTree(state.history);

  /** Starts over with a tree: read from the server (saved) or new (not saved yet). */
  const load = useCallback(
    (root: SchemaNode, saved: boolean) => commit({ history: startHistory(root, saved), selected: root.id }),
    [commit],
  );

  /** Applies an edit made on the current tree; answers the refusal, if any. */
  const apply = useCallback(
    (edit: (root: SchemaNode) => EditResult): string | null => {
      const s = ref.current;
      const result = edit(currentTree(s.history));
      if (!result.ok) return result.error;
      commit({ history: record(s.history, result.root), selected: result.selected ?? s.selected });
      return null;
    },
    [commit],
  );

  /** Replaces the whole tree as one step of the history (an import, a paste, the Edit json dialog). */
  const replace = useCallback(
    (root: SchemaNode) => change((s) => ({ history: record(s.history, root), selected: root.id })),
    [change],
  );

  const select = useCallback((id: string | null) => change((s) => ({ ...s, selected: id })), [change]);
  const doUndo = useCallback(() => change((s) => ({ ...s, history: undo(s.history) })), [change]);
  const doRedo = useCallback(() => change((s) => ({ ...s, history: redo(s.history) })), [change]);
  const saved = useCallback(() => change((s) => ({ ...s, history: markSaved(s.history) })), [change]);

  return {
    tree,
    selected: state.selected,
    dirty: isDirty(state.history),
    canUndo: canUndo(state.history),
    canRedo: canRedo(state.history),
    load,
    apply,
    replace,
    select,
    undo: doUndo,
    redo: doRedo,
    saved,
  };
}

export type SchemaEditorState = ReturnType<typeof useSchemaEditor>;
