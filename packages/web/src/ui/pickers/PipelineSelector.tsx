import { EditOutlined } from '@ant-design/icons';
import { versionLabel } from '@gdb/shared/versions/versions.schemas';
import { App, Button, Select, Space } from 'antd';
import { useEffect, useMemo } from 'react';
import { useMasterPipelines } from '../../ground/calls/pipelines.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { unlistedOption } from '../no-access.ts';
import { openInNewTab } from './document-addresses.ts';
import './pickers.css';

export interface PipelineSelectorProps {
  /** Id of the chosen master pipeline version; null when none. */
  value: string | null;
  onChange: (id: string | null) => void;
  readOnly?: boolean;
  /** The host's edit action; without it the edit button opens the pipeline (ManagePipeline) in a new tab. */
  onEdit?: (id: string) => void;
}

/**
 * The pipeline selector (docs/product.md §18.6): a searchable, clearable select with the placeholder
 * 'Pipeline', filled from the master pipelines by name ignoring case, each with its version, and an
 * edit button that opens the chosen one.
 */
export function PipelineSelector({ value, onChange, readOnly = false, onEdit }: PipelineSelectorProps) {
  const { message } = App.useApp();
  const masters = useMasterPipelines();
  useEffect(() => {
    if (masters.error) showFailure(masters.error, message.error);
  }, [masters.error, message]);
  const options = useMemo(() => {
    const listed = [...(masters.data ?? [])]
      .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.version - b.version)
      .map((p) => ({ value: p._id, label: `${p.name} ${versionLabel(p)}` }));
    // A chosen master the caller may not read is not listed: it is said so, not shown by its id.
    return value && !listed.some((o) => o.value === value) ? [...listed, unlistedOption(value, masters.isPending)] : listed;
  }, [masters.data, masters.isPending, value]);
  const edit = () => {
    if (!value) return;
    if (onEdit) onEdit(value);
    else openInNewTab('pipeline', value);
  };
  return (
    <Space.Compact block className="gdb-pipeline-picker">
      <Select
        aria-label="Pipeline"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder="Pipeline"
        style={{ flex: 1 }}
        loading={masters.isPending}
        disabled={readOnly}
        value={value ?? undefined}
        onChange={(next: string | undefined) => onChange(next ?? null)}
        options={options}
      />
      <Button icon={<EditOutlined />} aria-label="Edit pipeline" title="Edit pipeline" disabled={!value} onClick={edit} />
    </Space.Compact>
  );
}
