import { EditOutlined } from '@ant-design/icons';
import { versionLabel } from '@gdb/shared/versions/versions.schemas';
import { useQuery } from '@tanstack/react-query';
import { Button, Select, Space } from 'antd';
import { useMemo } from 'react';
import { folderTreeQuery } from '../../ground/calls/folders.ts';
import { Explorer } from '../explorer/index.ts';
import { indexTree, nodeOfVersion } from '../explorer/tree-model.ts';
import { unlistedOption } from '../no-access.ts';
import { openInNewTab } from './document-addresses.ts';
import './pickers.css';

const WORDS = { component: 'component', sdk: 'SDK function' } as const;

export interface DocumentPickerProps {
  kind: 'component' | 'sdk';
  /** Id of the chosen version; null when none. */
  value: string | null;
  onChange: (id: string | null) => void;
  readOnly?: boolean;
}

/** The versions of the chosen document's family, newest first, each labelled '(v.{n} - Prod|Draft)'. */
function useVersionsOf(kind: 'component' | 'sdk', value: string | null) {
  const tree = useQuery(folderTreeQuery(kind));
  return useMemo(() => {
    const node = nodeOfVersion(indexTree(tree.data ?? []), value);
    const versions = [...(node?.versions ?? [])].sort((a, b) => b.version - a.version);
    const listed = versions.map((v) => ({ value: v._id, label: versionLabel(v) }));
    // A chosen version the caller may not read is not in their tree: it is said so, not shown by its id.
    return listed.length > 0 || !value ? listed : [unlistedOption(value, tree.isPending)];
  }, [tree.data, tree.isPending, value]);
}

/**
 * A picker of a component or SDK function version (the form widgets `component` and `sdk`): the
 * explorer's tree in its cascader mode (searchable, clearable) chooses the document by name, a
 * select beside it its version, and the edit button opens it in its editor in a new tab.
 */
export function DocumentPicker({ kind, value, onChange, readOnly = false }: DocumentPickerProps) {
  const versions = useVersionsOf(kind, value);
  const word = WORDS[kind];
  return (
    <Space.Compact block className="gdb-document-picker">
      <div className="gdb-document-picker-name">
        <Explorer
          kind={kind}
          mode="cascader"
          selectedId={value}
          onOpen={(id) => onChange(id)}
          onClear={() => onChange(null)}
          disabled={readOnly}
          label={`Choose a ${word}`}
        />
      </div>
      <Select
        aria-label={`Version of the ${word}`}
        className="gdb-document-picker-version"
        disabled={readOnly || !value}
        value={value ?? undefined}
        onChange={(id: string) => onChange(id)}
        options={versions}
      />
      <Button
        icon={<EditOutlined />}
        aria-label={`Edit ${word}`}
        title={`Edit ${word}`}
        disabled={!value}
        onClick={() => value && openInNewTab(kind, value)}
      />
    </Space.Compact>
  );
}

export interface DocumentListPickerProps {
  kind: 'component' | 'sdk';
  value: readonly string[];
  onChange: (ids: string[]) => void;
  readOnly?: boolean;
}

/** A list of documents (a component's SDK functions): one picker each, and an empty one to add another. */
export function DocumentListPicker({ kind, value, onChange, readOnly = false }: DocumentListPickerProps) {
  const replace = (at: number, id: string | null) => {
    const next = [...value];
    if (id === null) next.splice(at, 1);
    else next[at] = id;
    onChange([...new Set(next)]);
  };
  return (
    <div className="gdb-document-list-picker">
      {value.map((id, at) => (
        <DocumentPicker key={id} kind={kind} value={id} readOnly={readOnly} onChange={(next) => replace(at, next)} />
      ))}
      {!readOnly && <DocumentPicker kind={kind} value={null} onChange={(id) => id && onChange([...new Set([...value, id])])} />}
    </div>
  );
}
