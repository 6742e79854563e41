import type { FolderKind, TreeNode } from '@gdb/shared/folders/folders.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { folderTreeQuery, listenFolderTreeChanges } from '../../ground/calls/folders.ts';
import { useSessionUser } from '../../ground/session/session.ts';
import { tagListQuery } from '../tags/api.ts';
import { ExplorerCascader } from './ExplorerCascader.tsx';
import { ExplorerTree } from './ExplorerTree.tsx';
import { type ExplorerUser, seesBadges } from './explorer-rules.ts';
import { type FailureReport, useExplorerCalls } from './useExplorerCalls.ts';
import './explorer.css';

export interface ExplorerProps {
  /** Which tree: pipeline, schema, component or sdk. */
  kind: FolderKind;
  /** 'tree' (the default): the draggable tree with its menus; 'cascader': a select of the documents. */
  mode?: 'tree' | 'cascader';
  /** The document the page shows, highlighted (any version of it); by default the page address's `id`; null for none. */
  selectedId?: string | null;
  /** A document was chosen: the id of its newest version, or of the version chosen, and its node. */
  onOpen: (id: string, node: TreeNode) => void;
  /** Cascader mode: the choice was cleared. */
  onClear?: () => void;
  /** Offers 'New {kind}': the host creates a document named `name` in the folder `folderId`. */
  onCreateDocument?: (name: string, folderId: string) => Promise<void>;
  /** Leaves out the documents the page does not offer (folders stay). */
  keepLeaf?: (node: TreeNode) => boolean;
  /** How failed calls are told: a toast by default. */
  onFailure?: FailureReport;
  /** Height of the tree's list, in pixels (the list is virtual). */
  height?: number;
  /** The accessible name of the tree or select. */
  label?: string;
  /** Cascader mode: read-only, the choice shown but not changed. */
  disabled?: boolean;
}

const DEFAULT_HEIGHT = 560;

const LABELS: Readonly<Record<FolderKind, string>> = {
  pipeline: 'Pipeline folders',
  schema: 'Data model folders',
  component: 'Component folders',
  sdk: 'SDK function folders',
};

/** The user's tree of one kind, kept per kind for the page and cleared by any change in any tab. */
function useFolderTree(kind: FolderKind) {
  const queryClient = useQueryClient();
  useEffect(() => listenFolderTreeChanges(queryClient), [queryClient]);
  return useQuery(folderTreeQuery(kind));
}

/**
 * The folder explorer of one kind: a tree (filter, every folder open, drag and drop, node menus,
 * inline rename, badges for admins) or a cascader ('Select a {kind}').
 */
export function Explorer({
  kind,
  mode = 'tree',
  selectedId,
  onOpen,
  onClear,
  onCreateDocument,
  keepLeaf,
  onFailure,
  height = DEFAULT_HEIGHT,
  label = LABELS[kind],
  disabled = false,
}: ExplorerProps) {
  const sessionUser = useSessionUser();
  const user: ExplorerUser = useMemo(
    () => ({ roles: sessionUser?.roles.map((r) => r.name) ?? [], tags: sessionUser?.tags ?? [] }),
    [sessionUser],
  );
  const tree = useFolderTree(kind);
  const calls = useExplorerCalls(kind, onFailure);
  const badges = seesBadges(user) && mode === 'tree';
  const tags = useQuery({ ...tagListQuery(), enabled: badges });
  const tagNames = useMemo(() => (badges ? new Map((tags.data ?? []).map((t) => [t._id, t.name])) : null), [badges, tags.data]);
  const roots = tree.data ?? [];
  // The page re-renders when its address changes, and with it the explorer.
  const shownId = selectedId === undefined ? new URLSearchParams(window.location.search).get('id') : selectedId;

  // A failed read is told once, like any other call of the explorer.
  const report = useRef(calls.report);
  report.current = calls.report;
  useEffect(() => {
    if (tree.error) report.current(tree.error);
  }, [tree.error]);

  if (mode === 'cascader') {
    return (
      <ExplorerCascader
        kind={kind}
        roots={roots}
        selectedId={shownId}
        onOpen={onOpen}
        onClear={onClear}
        keepLeaf={keepLeaf}
        label={label}
        loading={tree.isLoading}
        disabled={disabled}
      />
    );
  }
  return (
    <ExplorerTree
      kind={kind}
      roots={roots}
      user={user}
      selectedId={shownId}
      onOpen={onOpen}
      onCreateDocument={onCreateDocument}
      keepLeaf={keepLeaf}
      height={height}
      label={label}
      calls={calls}
      tagNames={tagNames}
    />
  );
}
