import { Dropdown, type MenuProps } from 'antd';

/** A node's menu, open at a point of the page. */
export interface TreeMenuAt<T> {
  node: T;
  x: number;
  y: number;
}

export interface TreeMenuProps<T> {
  menu: TreeMenuAt<T> | null;
  /** The entries of a node's menu, built when it opens. */
  itemsOf: (node: T) => MenuProps['items'];
  onPick: (key: string, node: T) => void;
  onClose: () => void;
}

/** The context menu of a tree's node, at the pointer or below the row the keyboard opened it on. */
export function TreeMenu<T>({ menu, itemsOf, onPick, onClose }: TreeMenuProps<T>) {
  // Mounted only while open: a closed menu costs the tree nothing.
  if (!menu) return null;
  return (
    <Dropdown
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      menu={{
        items: itemsOf(menu.node),
        onClick: ({ key }) => {
          onClose();
          onPick(key, menu.node);
        },
      }}
      trigger={['contextMenu']}
      autoFocus
    >
      <span className="gdb-tree-menu-anchor" style={{ left: menu.x, top: menu.y }} />
    </Dropdown>
  );
}
