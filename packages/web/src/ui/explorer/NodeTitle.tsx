import { MoreOutlined } from '@ant-design/icons';
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { Button, Input } from 'antd';
import { useState } from 'react';
import { tagExpression } from './explorer-rules.ts';

export interface NodeTitleProps {
  node: TreeNode;
  /** Shown to admins and super-admins: the names of the badges, by id. */
  tagNames: ReadonlyMap<string, string> | null;
  hasMenu: boolean;
  renaming: boolean;
  onMenu: (node: TreeNode, anchor: HTMLElement) => void;
  onRename: (node: TreeNode, name: string) => void;
  /** The rename ended without a name: `byKey` when by Escape (the focus then goes back to the tree), else by leaving the field. */
  onRenameEnd: (byKey: boolean) => void;
}

/** Stops the tree from taking the clicks, keys and drags meant for the inline rename field. */
const keep = (e: { stopPropagation: () => void }) => e.stopPropagation();

function InlineRename({
  node,
  onRename,
  onEnd,
}: {
  node: TreeNode;
  onRename: NodeTitleProps['onRename'];
  onEnd: NodeTitleProps['onRenameEnd'];
}) {
  const [name, setName] = useState(node.label);
  return (
    <Input
      size="small"
      autoFocus
      aria-label={`New name of ${node.label}`}
      className="gdb-explorer-rename"
      value={name}
      onChange={(e) => setName(e.target.value)}
      onClick={keep}
      onDoubleClick={keep}
      onMouseDown={keep}
      onDragStart={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') onEnd(true);
        if (e.key === 'Enter' && name.trim()) onRename(node, name.trim());
      }}
      onFocus={keep}
      onBlur={(e) => {
        e.stopPropagation();
        onEnd(false);
      }}
    />
  );
}

/** A row of the tree: the label (or its inline rename field), the badge expressions for admins, and the menu button. */
export function NodeTitle({ node, tagNames, hasMenu, renaming, onMenu, onRename, onRenameEnd }: NodeTitleProps) {
  const read = tagNames ? tagExpression(node.tags.read, tagNames) : '';
  const write = tagNames ? tagExpression(node.tags.write, tagNames) : '';
  return (
    <span className="gdb-explorer-node">
      {renaming ? (
        <InlineRename node={node} onRename={onRename} onEnd={onRenameEnd} />
      ) : (
        <span className="gdb-explorer-label" title={node.label}>
          {node.label}
        </span>
      )}
      {read ? <span className="gdb-explorer-tags" title={`Read badges: ${read}`}>{`R: ${read}`}</span> : null}
      {write ? <span className="gdb-explorer-tags" title={`Write badges: ${write}`}>{`W: ${write}`}</span> : null}
      {hasMenu && !renaming ? (
        <Button
          type="text"
          size="small"
          tabIndex={-1}
          className="gdb-explorer-menu-button"
          aria-label={`Actions for ${node.label}`}
          icon={<MoreOutlined />}
          onClick={(e) => {
            e.stopPropagation();
            onMenu(node, e.currentTarget);
          }}
        />
      ) : null}
    </span>
  );
}
