import type { FolderKind, TreeNode } from '@gdb/shared/folders/folders.schemas';
import { Cascader } from 'antd';
import { useId, useMemo } from 'react';
import { NO_ACCESS } from '../no-access.ts';
import { KIND_LABELS } from './explorer-rules.ts';
import { chainOf, filterTree, indexTree, nodeOfVersion } from './tree-model.ts';

export interface ExplorerCascaderProps {
  kind: FolderKind;
  roots: readonly TreeNode[];
  selectedId: string | null | undefined;
  onOpen: (id: string, node: TreeNode) => void;
  onClear: (() => void) | undefined;
  keepLeaf: ((node: TreeNode) => boolean) | undefined;
  label: string;
  loading: boolean;
  /** Read-only: the choice is shown, not changed. */
  disabled?: boolean;
}

const FIELD_NAMES = { label: 'label', value: 'value', children: 'children' } as const;

/** The cascader mode: 'Select a {kind}', filterable, clearable, showing only the last level. */
export function ExplorerCascader({
  kind,
  roots,
  selectedId,
  onOpen,
  onClear,
  keepLeaf,
  label,
  loading,
  disabled = false,
}: ExplorerCascaderProps) {
  // The search input names its list (`aria-owns`/`aria-controls` `{id}_list`) as a select's does, but
  // the cascader renders no element of that id: its menus are wrapped in one, so the name is true.
  const id = useId();
  const options = useMemo(() => filterTree(roots, '', keepLeaf) as TreeNode[], [roots, keepLeaf]);
  const index = useMemo(() => indexTree(roots), [roots]);
  const selected = nodeOfVersion(index, selectedId);
  const value = selected
    ? chainOf(index, selected)
        .reverse()
        .map((n) => n.value)
    : undefined;

  return (
    <Cascader<TreeNode>
      id={id}
      aria-label={label}
      popupRender={(menus) => <div id={`${id}_list`}>{menus}</div>}
      className="gdb-explorer-cascader"
      placeholder={selectedId && !selected && !loading ? NO_ACCESS : `Select a ${KIND_LABELS[kind]}`}
      options={options}
      fieldNames={FIELD_NAMES}
      loading={loading}
      disabled={disabled}
      value={value}
      allowClear
      showSearch={{
        filter: (input, path) => path.some((n) => n.label.toLowerCase().includes(input.trim().toLowerCase())),
      }}
      displayRender={(labels) => labels.at(-1)}
      onChange={(path) => {
        const last = path?.at(-1);
        if (last === undefined || last === null) {
          onClear?.();
          return;
        }
        const node = index.byId.get(String(last));
        if (node?.type === 'leaf') onOpen(node.value, node);
      }}
    />
  );
}
