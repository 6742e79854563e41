import {
  ApartmentOutlined,
  AppstoreOutlined,
  DatabaseOutlined,
  FileOutlined,
  FolderOpenOutlined,
  FolderOutlined,
} from '@ant-design/icons';
import type { FolderKind, TreeNode } from '@gdb/shared/folders/folders.schemas';
import { Dropdown, Input, Tree, Typography } from 'antd';
import type { EventDataNode } from 'antd/es/tree';
import { type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import {
  canDrag,
  type DropPosition,
  dropDestination,
  type ExplorerUser,
  type MenuAction,
  menuActions,
  menuLabel,
} from './explorer-rules.ts';
import { NodeTitle } from './NodeTitle.tsx';
import { filterTree, indexTree, nodeOfVersion, type TreeIndex } from './tree-model.ts';
import type { ExplorerCalls } from './useExplorerCalls.ts';
import { type ExplorerDialogs, useExplorerDialogs } from './useExplorerDialogs.tsx';

/** Said while the tree is empty. */
export const LOADING_TREE = 'Please wait while we are loading this tree ...';

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

type TreeKey = string | number | bigint;

const FIELD_NAMES = { title: 'label', key: 'value', children: 'children' } as const;

/** The rc-tree drop position (absolute among the siblings) made relative: before, inside or after the node. */
function relativePosition(node: EventDataNode<unknown>, dropPosition: number, dropToGap: boolean): DropPosition {
  if (!dropToGap) return 'inside';
  const at = Number(String(node.pos).split('-').at(-1));
  return dropPosition - at < 0 ? 'before' : 'after';
}

const POSITIONS: Readonly<Record<number, DropPosition>> = { [-1]: 'before', 0: 'inside', 1: 'after' };

/** The tree mode: filter, all folders open, drag and drop, node menus, inline rename. */
export function ExplorerTree(props: ExplorerTreeProps) {
  const { kind, roots, user, selectedId, onOpen, keepLeaf, height, label, calls, tagNames } = props;
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [renaming, setRenaming] = useState<string | null>(null);
  const [active, setActive] = useState<string | null>(null);
  const treeRef = useRef<{ scrollTo: (o: { key: TreeKey; align?: 'top' | 'bottom' | 'auto' }) => void }>(null);

  const index = useMemo(() => indexTree(roots), [roots]);
  const shown = useMemo(() => filterTree(roots, filter, keepLeaf), [roots, filter, keepLeaf]);
  const shownFolders = useMemo(() => (shown === roots ? index.folderIds : indexTree(shown).folderIds), [shown, roots, index]);
  const expandedKeys = useMemo(() => shownFolders.filter((id) => !collapsed.has(id)), [shownFolders, collapsed]);
  const selected = nodeOfVersion(index, selectedId);
  const selectedKeys = useMemo(() => (selected ? [selected.value] : []), [selected]);

  const dialogs: ExplorerDialogs = useExplorerDialogs({ kind, index, calls, onOpen, onCreateDocument: props.onCreateDocument });
  const options = { canCreateDocument: props.onCreateDocument !== undefined };
  const actionsOf = (node: TreeNode) => menuActions(user, index, node, options);

  // The highlighted item is brought into view once it is known.
  useEffect(() => {
    if (!selected) return;
    const frame = requestAnimationFrame(() => {
      try {
        treeRef.current?.scrollTo({ key: selected.value, align: 'auto' });
      } catch {
        // The list is not laid out yet (or no longer): nothing to scroll.
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [selected]);

  const [menu, setMenu] = useState<{ node: TreeNode; x: number; y: number } | null>(null);
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

  const onKeyDown = (e: KeyboardEvent) => {
    const node = active ? index.byId.get(active) : undefined;
    if (!node) return;
    if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      e.preventDefault();
      const row = document.querySelector(`[data-explorer-key="${CSS.escape(node.value)}"]`);
      const box = row?.getBoundingClientRect();
      openMenu(node, box ? box.left + 24 : 0, box ? box.bottom : 0);
    } else if (e.key === 'F2') {
      e.preventDefault();
      startRename(node);
    } else if (e.key === 'Delete') {
      const action = node.type === 'folder' ? 'deleteFolder' : 'deleteDocument';
      if (actionsOf(node).includes(action)) dialogs.run(action, node);
    } else if (e.key === 'Enter' && node.type === 'leaf') {
      onOpen(node.value, node);
    }
  };

  if (roots.length === 0) {
    return (
      <div className="gdb-explorer">
        <Typography.Text type="secondary" role="status">
          {LOADING_TREE}
        </Typography.Text>
      </div>
    );
  }

  const nodeOf = (data: unknown) => index.byId.get(String((data as { value?: unknown }).value));
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
          setCollapsed(new Set());
        }}
      />
      <Tree
        ref={treeRef as never}
        aria-label={label}
        className="gdb-explorer-tree"
        treeData={shown as never}
        fieldNames={FIELD_NAMES}
        height={height}
        virtual
        showIcon
        blockNode
        expandedKeys={expandedKeys}
        selectedKeys={selectedKeys}
        onExpand={(_keys, info) => {
          const key = String(info.node.key);
          setCollapsed((c) => {
            const next = new Set(c);
            if (info.expanded) next.delete(key);
            else next.add(key);
            return next;
          });
        }}
        onSelect={(_keys, info) => {
          const node = nodeOf(info.node);
          if (node?.type === 'leaf') onOpen(node.value, node);
        }}
        onDoubleClick={(_e, data) => {
          const node = nodeOf(data);
          if (node) startRename(node);
        }}
        onActiveChange={(key) => setActive(key === null || key === undefined ? null : String(key))}
        onKeyDown={onKeyDown}
        onRightClick={({ event, node }) => {
          const n = nodeOf(node);
          if (!n) return;
          event.preventDefault();
          openMenu(n, event.clientX, event.clientY);
        }}
        icon={(p) => {
          const node = index.byId.get(p.eventKey);
          if (!node || node.type === 'folder') return p.expanded ? <FolderOpenOutlined /> : <FolderOutlined />;
          return LEAF_ICONS[kind];
        }}
        draggable={{ icon: false, nodeDraggable: (data) => !!nodeOf(data) && canDrag(user, index, nodeOf(data) as TreeNode) }}
        allowDrop={({ dragNode, dropNode, dropPosition }) => {
          const item = nodeOf(dragNode);
          const target = nodeOf(dropNode);
          const position = POSITIONS[dropPosition];
          return !!item && !!target && !!position && dropDestination(user, index, item, target, position) !== null;
        }}
        onDrop={(info) => {
          const item = nodeOf(info.dragNode);
          const target = nodeOf(info.node);
          if (!item || !target) return;
          const destination = dropDestination(
            user,
            index,
            item,
            target,
            relativePosition(info.node, info.dropPosition, info.dropToGap),
          );
          if (destination) void calls.move(item, destination.value).catch(() => {});
        }}
        titleRender={(data) => {
          const node = nodeOf(data);
          if (!node) return null;
          return (
            <span data-explorer-key={node.value}>
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
            </span>
          );
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

export type { TreeIndex };
