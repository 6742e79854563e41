import {
  ApartmentOutlined,
  AppstoreOutlined,
  DatabaseOutlined,
  FileOutlined,
  FolderOpenOutlined,
  FolderOutlined,
} from '@ant-design/icons';
import type { FolderKind, TreeNode } from '@gdb/shared/folders/folders.schemas';
import { Input, Typography } from 'antd';
import { type KeyboardEvent, type ReactNode, useMemo, useRef, useState } from 'react';
import { TreeMenu, type TreeMenuAt } from '../tree/TreeMenu.tsx';
import type { TreeRow } from '../tree/tree-rows.ts';
import { useCollapsed } from '../tree/useCollapsed.ts';
import type { TreeDrag } from '../tree/useTreeDrag.ts';
import { VirtualTree } from '../tree/VirtualTree.tsx';
import { canDrag, dropDestination, type ExplorerUser, type MenuAction, menuActions, menuLabel } from './explorer-rules.ts';
import { NodeTitle } from './NodeTitle.tsx';
import { filterTree, indexTree, nodeOfVersion, type TreeIndex } from './tree-model.ts';
import type { ExplorerCalls } from './useExplorerCalls.ts';
import { type ExplorerDialogs, useExplorerDialogs } from './useExplorerDialogs.tsx';

/** Said while the tree is empty. */
const LOADING_TREE = 'Please wait while we are loading this tree ...';

const LEAF_ICONS: Readonly<Record<FolderKind, ReactNode>> = {
  pipeline: <ApartmentOutlined />,
  schema: <DatabaseOutlined />,
  component: <AppstoreOutlined />,
  sdk: <FileOutlined />,
};

export interface ExplorerTreeProps {
  kind: FolderKind;
  roots: readonly TreeNode[];
  user: ExplorerUser;
  selectedId: string | null | undefined;
  onOpen: (id: string, node: TreeNode) => void;
  onCreateDocument: ((name: string, folderId: string) => Promise<void>) | undefined;
  keepLeaf: ((node: TreeNode) => boolean) | undefined;
  height: number;
  label: string;
  calls: ExplorerCalls;
  tagNames: ReadonlyMap<string, string> | null;
}

const keyOf = (node: TreeNode) => node.value;
const childrenOf = (node: TreeNode) => node.children;
const holds = (node: TreeNode) => node.type === 'folder';

function icon(kind: FolderKind, node: TreeNode, row: TreeRow<TreeNode>): ReactNode {
  if (node.type === 'leaf') return LEAF_ICONS[kind];
  return row.collapsed ? <FolderOutlined /> : <FolderOpenOutlined />;
}

/** What the tree shows while it is empty. */
function LoadingTree() {
  return (
    <div className="gdb-explorer">
      <Typography.Text type="secondary" role="status">
        {LOADING_TREE}
      </Typography.Text>
    </div>
  );
}

/** Drag and drop: what may move (not a node being renamed) and where; a drop moves it on the server. */
function dragRules(user: ExplorerUser, index: TreeIndex, renaming: string | null, calls: ExplorerCalls): TreeDrag<TreeNode> {
  return {
    canDrag: (node) => renaming !== node.value && canDrag(user, index, node),
    holds,
    canDrop: (item, target, position) => dropDestination(user, index, item, target, position) !== null,
    onDrop: (item, target, position) => {
      const destination = dropDestination(user, index, item, target, position);
      if (destination) void calls.move(item, destination.value).catch(() => {});
    },
  };
}

/** The folder renamed in place, if any: started by F2 or a double click, the focus back to the tree once it ends. */
function useInlineRename(calls: ExplorerCalls, actionsOf: (node: TreeNode) => MenuAction[], backToTree: () => void) {
  const [renaming, setRenaming] = useState<string | null>(null);
  return {
    renaming,
    startRename: (node: TreeNode) => {
      if (actionsOf(node).includes('renameFolder')) setRenaming(node.value);
    },
    rename: (node: TreeNode, name: string) => {
      setRenaming(null);
      backToTree();
      if (name !== node.label) void calls.renameFolder(node.value, name).catch(() => {});
    },
    endRename: (byKey: boolean) => {
      setRenaming(null);
      if (byKey) backToTree();
    },
  };
}

/** The filter above the tree. */
function TreeFilter({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  return (
    <Input
      className="gdb-explorer-filter"
      placeholder="Filter"
      aria-label="Filter"
      allowClear
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The tree mode: filter, all folders open, drag and drop, node menus, inline rename. */
export function ExplorerTree(props: ExplorerTreeProps) {
  const { kind, roots, user, selectedId, onOpen, keepLeaf, height, label, calls, tagNames } = props;
  const [filter, setFilter] = useState('');
  const { collapsed, toggle, openAll } = useCollapsed();
  const [menu, setMenu] = useState<TreeMenuAt<TreeNode> | null>(null);

  const index = useMemo(() => indexTree(roots), [roots]);
  const shown = useMemo(() => filterTree(roots, filter, keepLeaf), [roots, filter, keepLeaf]);
  const selected = nodeOfVersion(index, selectedId);

  const frame = useRef<HTMLDivElement>(null);
  // The tree keeps the focus (its rows are named by aria-activedescendant): an inline rename or a
  // dialog of the node menu gives it back, rather than leave it on the page.
  const backToTree = () => setTimeout(() => frame.current?.querySelector<HTMLElement>('[role=tree]')?.focus());
  const dialogs: ExplorerDialogs = useExplorerDialogs({
    kind,
    user,
    index,
    calls,
    onOpen,
    onCreateDocument: props.onCreateDocument,
    onClosed: backToTree,
  });
  const options = { canCreateDocument: props.onCreateDocument !== undefined };
  const actionsOf = (node: TreeNode) => menuActions(user, index, node, options);

  const openMenu = (node: TreeNode, x: number, y: number) => {
    if (actionsOf(node).length > 0) setMenu({ node, x, y });
  };

  const openLeaf = (node: TreeNode) => {
    if (node.type === 'leaf') onOpen(node.value, node);
  };
  const { renaming, startRename, rename, endRename } = useInlineRename(calls, actionsOf, backToTree);

  const onKey = (node: TreeNode, e: KeyboardEvent) => {
    if (e.key === 'F2') {
      e.preventDefault();
      startRename(node);
    } else if (e.key === 'Delete') {
      const action = node.type === 'folder' ? 'deleteFolder' : 'deleteDocument';
      if (actionsOf(node).includes(action)) dialogs.run(action, node);
    }
  };

  if (roots.length === 0) return <LoadingTree />;

  return (
    <div className="gdb-explorer" ref={frame}>
      <TreeFilter
        value={filter}
        onChange={(text) => {
          setFilter(text);
          openAll();
        }}
      />
      <VirtualTree
        roots={shown}
        keyOf={keyOf}
        childrenOf={childrenOf}
        collapsed={collapsed}
        onToggle={(node) => toggle(node.value)}
        selectedKey={selected?.value ?? null}
        height={height}
        label={label}
        keyShortcuts="Shift+F10 F2 Delete"
        title={(node, row) => (
          <>
            <span className="gdb-explorer-icon" aria-hidden="true">
              {icon(kind, node, row)}
            </span>
            <NodeTitle
              node={node}
              tagNames={tagNames}
              hasMenu={actionsOf(node).length > 0}
              renaming={renaming === node.value}
              onMenu={(n, anchor) => {
                const box = anchor.getBoundingClientRect();
                openMenu(n, box.left, box.bottom);
              }}
              onRename={rename}
              onRenameEnd={endRename}
            />
          </>
        )}
        onSelect={openLeaf}
        onActivate={openLeaf}
        onDoubleClick={startRename}
        onMenu={openMenu}
        onKey={onKey}
        drag={dragRules(user, index, renaming, calls)}
      />
      <TreeMenu
        menu={menu}
        itemsOf={(node) => actionsOf(node).map((a) => ({ key: a, label: menuLabel(a, kind) }))}
        onPick={(action, node) => dialogs.run(action as MenuAction, node)}
        onClose={() => setMenu(null)}
      />
      {dialogs.element}
    </div>
  );
}
