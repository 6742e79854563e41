import {
  ApartmentOutlined,
  AppstoreOutlined,
  DatabaseOutlined,
  FileOutlined,
  FolderOpenOutlined,
  FolderOutlined,
} from '@ant-design/icons';
import type { FolderKind, TreeNode } from '@gdb/shared/folders/folders.schemas';
import { Dropdown, Input, Typography } from 'antd';
import { type KeyboardEvent, type ReactNode, useMemo, useState } from 'react';
import { canDrag, dropDestination, type ExplorerUser, type MenuAction, menuActions, menuLabel } from './explorer-rules.ts';
import { NodeTitle } from './NodeTitle.tsx';
import { filterTree, indexTree, nodeOfVersion } from './tree-model.ts';
import type { ExplorerCalls } from './useExplorerCalls.ts';
import { type ExplorerDialogs, useExplorerDialogs } from './useExplorerDialogs.tsx';
import { VirtualTree } from './VirtualTree.tsx';

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

const NO_COLLAPSED: ReadonlySet<string> = new Set();

/** The tree mode: filter, all folders open, drag and drop, node menus, inline rename. */
export function ExplorerTree(props: ExplorerTreeProps) {
  const { kind, roots, user, selectedId, onOpen, keepLeaf, height, label, calls, tagNames } = props;
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(NO_COLLAPSED);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [menu, setMenu] = useState<{ node: TreeNode; x: number; y: number } | null>(null);

  const index = useMemo(() => indexTree(roots), [roots]);
  const shown = useMemo(() => filterTree(roots, filter, keepLeaf), [roots, filter, keepLeaf]);
  const selected = nodeOfVersion(index, selectedId);

  const dialogs: ExplorerDialogs = useExplorerDialogs({ kind, index, calls, onOpen, onCreateDocument: props.onCreateDocument });
  const options = { canCreateDocument: props.onCreateDocument !== undefined };
  const actionsOf = (node: TreeNode) => menuActions(user, index, node, options);

  const openMenu = (node: TreeNode, x: number, y: number) => {
    if (actionsOf(node).length > 0) setMenu({ node, x, y });
  };
  const runMenu = (action: MenuAction) => {
    const node = menu?.node;
    setMenu(null);
    if (node) dialogs.run(action, node);
  };

  const startRename = (node: TreeNode) => {
    if (actionsOf(node).includes('renameFolder')) setRenaming(node.value);
  };
  const rename = (node: TreeNode, name: string) => {
    setRenaming(null);
    if (name !== node.label) void calls.renameFolder(node.value, name).catch(() => {});
  };

  const onKey = (node: TreeNode, e: KeyboardEvent) => {
    if (e.key === 'F2') {
      e.preventDefault();
      startRename(node);
    } else if (e.key === 'Delete') {
      const action = node.type === 'folder' ? 'deleteFolder' : 'deleteDocument';
      if (actionsOf(node).includes(action)) dialogs.run(action, node);
    }
  };

  const toggle = (node: TreeNode) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(node.value)) next.delete(node.value);
      else next.add(node.value);
      return next;
    });

  if (roots.length === 0) {
    return (
      <div className="gdb-explorer">
        <Typography.Text type="secondary" role="status">
          {LOADING_TREE}
        </Typography.Text>
      </div>
    );
  }

  const menuItems = menu ? actionsOf(menu.node).map((a) => ({ key: a, label: menuLabel(a, kind) })) : [];

  return (
    <div className="gdb-explorer">
      <Input
        className="gdb-explorer-filter"
        placeholder="Filter"
        aria-label="Filter"
        allowClear
        value={filter}
        onChange={(e) => {
          setFilter(e.target.value);
          setCollapsed(NO_COLLAPSED);
        }}
      />
      <VirtualTree
        roots={shown}
        collapsed={collapsed}
        onToggle={toggle}
        selectedKey={selected?.value ?? null}
        height={height}
        label={label}
        icon={(node, open) => {
          if (node.type === 'leaf') return LEAF_ICONS[kind];
          return open ? <FolderOpenOutlined /> : <FolderOutlined />;
        }}
        title={(node) => (
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
            onRenameEnd={() => setRenaming(null)}
          />
        )}
        onOpen={(node) => onOpen(node.value, node)}
        onDoubleClick={startRename}
        onMenu={openMenu}
        onKey={onKey}
        canDrag={(node) => renaming !== node.value && canDrag(user, index, node)}
        canDrop={(item, target, position) => dropDestination(user, index, item, target, position) !== null}
        onDrop={(item, target, position) => {
          const destination = dropDestination(user, index, item, target, position);
          if (destination) void calls.move(item, destination.value).catch(() => {});
        }}
      />
      <Dropdown
        open={menu !== null}
        onOpenChange={(open) => {
          if (!open) setMenu(null);
        }}
        menu={{ items: menuItems, onClick: ({ key }) => runMenu(key as MenuAction) }}
        trigger={['click']}
        autoFocus
      >
        <span className="gdb-explorer-menu-anchor" style={{ left: menu?.x ?? 0, top: menu?.y ?? 0 }} />
      </Dropdown>
      {dialogs.element}
    </div>
  );
}
