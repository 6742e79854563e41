import { LockOutlined } from '@ant-design/icons';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { sortPipelines } from '@gdb/shared/pipelines/pipeline.schemas';
import { Button, Checkbox, Collapse, Space, Tag } from 'antd';
import { useState } from 'react';
import { seesCountryVersions } from '../../ui/pipelines/pipeline-filter.ts';

export interface CountryPipelinesProps {
  countries: readonly PipelineView[];
  roles: readonly string[];
  busy: boolean;
  onRun: (ids: string[]) => void;
}

/** 'Country Pipelines of Master': checkboxes and 'Run selected pipelines' (a sequential job, in list order). */
export function CountryPipelines({ countries, roles, busy, onRun }: CountryPipelinesProps) {
  const [checked, setChecked] = useState<string[]>([]);
  const versions = seesCountryVersions(roles);
  const sorted = sortPipelines(countries);
  const body = (
    <Space orientation="vertical">
      {sorted.map((p) => (
        <Checkbox
          key={p._id}
          checked={checked.includes(p._id)}
          onChange={(e) => setChecked((c) => (e.target.checked ? [...c, p._id] : c.filter((x) => x !== p._id)))}
        >
          {p.name} {versions && <Tag>v{p.version}</Tag>}
          {versions && p.vLocked && <LockOutlined aria-label="locked" />}
        </Checkbox>
      ))}
      <Button
        type="primary"
        disabled={checked.length === 0}
        loading={busy}
        onClick={() => onRun(sorted.filter((p) => checked.includes(p._id)).map((p) => p._id))}
      >
        Run selected pipelines
      </Button>
    </Space>
  );
  return <Collapse items={[{ key: 'countries', label: 'Country Pipelines of Master', children: body }]} />;
}
