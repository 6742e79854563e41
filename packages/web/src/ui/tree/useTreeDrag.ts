import { type DragEvent, useRef, useState } from 'react';
import { type DropPosition, dropPosition } from './tree-rows.ts';

/** What a tree lets the user drag, and where a drop is allowed. */
export interface TreeDrag<T> {
  canDrag: (node: T) => boolean;
  /** Whether a node takes others inside it (the middle of its row drops inside). */
  holds: (node: T) => boolean;
  canDrop: (item: T, target: T, position: DropPosition) => boolean;
  onDrop: (item: T, target: T, position: DropPosition) => void;
}

/** Drag and drop between the rows of a tree: the handlers of a row, and the class of the row a drop would land on. */
export function useTreeDrag<T>(drag: TreeDrag<T> | undefined, rowHeight: number) {
  const [drop, setDrop] = useState<{ key: string; position: DropPosition } | null>(null);
  const dragged = useRef<T | null>(null);
  const positionOf = (node: T, e: DragEvent) =>
    dropPosition(drag?.holds(node) ?? false, e.clientY - e.currentTarget.getBoundingClientRect().top, rowHeight);

  const rowProps = (node: T, key: string) => {
    if (!drag) return {};
    return {
      draggable: drag.canDrag(node),
      onDragStart: (e: DragEvent) => {
        dragged.current = node;
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', key);
      },
      onDragEnd: () => {
        dragged.current = null;
        setDrop(null);
      },
      onDragOver: (e: DragEvent) => {
        const item = dragged.current;
        if (!item) return;
        const position = positionOf(node, e);
        if (!drag.canDrop(item, node, position)) {
          if (drop) setDrop(null);
          return;
        }
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        if (drop?.key !== key || drop.position !== position) setDrop({ key, position });
      },
      onDragLeave: () => {
        if (drop?.key === key) setDrop(null);
      },
      onDrop: (e: DragEvent) => {
        e.preventDefault();
        const item = dragged.current;
        dragged.current = null;
        setDrop(null);
        const position = positionOf(node, e);
        if (item && drag.canDrop(item, node, position)) drag.onDrop(item, node, position);
      },
    };
  };
  const dropClass = (key: string) => (drop?.key === key ? `gdb-tree-drop-${drop.position}` : null);
  return { rowProps, dropClass };
}
