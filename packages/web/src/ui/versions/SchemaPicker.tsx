import { EditOutlined } from '@ant-design/icons';
import type { SchemaListEntry } from '@gdb/shared/schemas/schemas.schemas';
import { versionLabel } from '@gdb/shared/versions/versions.schemas';
import { App, Button, Select, Space } from 'antd';
import { useEffect, useId, useMemo } from 'react';
import { useSchemaList } from '../../ground/calls/schemas.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { unlistedOption } from '../no-access.ts';
import { openInNewTab } from '../pickers/document-addresses.ts';
import './versions.css';

/** Where the schema editor opens a data model (route SchemaEditor, query id). */

export interface SchemaPickerProps {
  /** Id of the chosen data model version; null when none. */
  value: string | null;
  onChange: (id: string | null) => void;
  readOnly?: boolean;
  /** The host form's edit action; without it the edit icon opens the editor in a new tab. */
  onEdit?: (id: string) => void;
}

const byName = (a: SchemaListEntry, b: SchemaListEntry) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.version - b.version;

/**
 * The data model picker of forms (docs/product.md §18.2): a filterable, clearable select labelled
 * 'Schema', each version as 'name (v.{n} - Prod|Draft)', and an edit icon for the chosen one.
 */
export function SchemaPicker({ value, onChange, readOnly = false, onEdit }: SchemaPickerProps) {
  const { message } = App.useApp();
  const id = useId();
  const list = useSchemaList();
  useEffect(() => {
    if (list.error) showFailure(list.error, message.error);
  }, [list.error, message]);
  const options = useMemo(() => {
    const listed = [...(list.data ?? [])].sort(byName).map((s) => ({ value: s._id, label: `${s.name} ${versionLabel(s)}` }));
    // A chosen data model the caller may not read is not listed: it is said so, not shown by its id.
    return value && !listed.some((o) => o.value === value) ? [...listed, unlistedOption(value, list.isPending)] : listed;
  }, [list.data, list.isPending, value]);
  const edit = () => {
    if (!value) return;
    if (onEdit) onEdit(value);
    else openInNewTab('schema', value);
  };
  return (
    <div className="gdb-schema-picker">
      <label className="gdb-schema-picker-label" htmlFor={id}>
        Schema
      </label>
      <Space.Compact block>
        <Select
          id={id}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="Schema"
          style={{ flex: 1 }}
          loading={list.isPending}
          disabled={readOnly}
          value={value ?? undefined}
          onChange={(next: string | undefined) => onChange(next ?? null)}
          options={options}
        />
        <Button icon={<EditOutlined />} aria-label="Edit schema" title="Edit schema" disabled={!value} onClick={edit} />
      </Space.Compact>
    </div>
  );
}
