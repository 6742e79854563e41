import { EditOutlined, LockOutlined } from '@ant-design/icons';
import type { PipelineView, UserPipelines } from '@gdb/shared/pipelines/pipeline.schemas';
import { localeLabel } from '@gdb/shared/reference/reference.schemas';
import { Select, Space, Spin, Tag, Typography } from 'antd';
import { ListBox } from '../ListBox.tsx';
import { filterPipelines, type PipelineFilter, seesVersions } from './pipeline-filter.ts';

export interface PipelinePickerProps {
  data: UserPipelines | undefined;
  loading: boolean;
  roles: readonly string[];
  filter: PipelineFilter;
  onFilter: (filter: PipelineFilter) => void;
  selectedId: string | null;
  onSelect: (pipeline: PipelineView) => void;
}

const options = (list: readonly { _id: string; name: string }[]) => list.map((x) => ({ value: x._id, label: x.name }));

export interface PipelineFiltersProps {
  data: UserPipelines | undefined;
  filter: PipelineFilter;
  onFilter: (filter: PipelineFilter) => void;
}

/** The four pipeline filters: brand, locale (language-country), product line and datakind. */
export function PipelineFilters({ data, filter, onFilter }: PipelineFiltersProps) {
  const types = data?.staticTypes;
  const set = (key: keyof PipelineFilter) => (value: string | undefined) => onFilter({ ...filter, [key]: value ?? null });
  const select = (key: keyof PipelineFilter, placeholder: string, opts: { value: string; label: string }[]) => (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      aria-label={placeholder}
      placeholder={placeholder}
      style={{ width: 200 }}
      value={filter[key] ?? undefined}
      onChange={set(key)}
      options={opts}
    />
  );
  return (
    <Space wrap style={{ marginBottom: 12 }}>
      {select('brand', 'Brand', options(types?.brands ?? []))}
      {select(
        'locale',
        'Locale',
        (types?.locales ?? []).map((l) => ({ value: l._id, label: localeLabel(l) })),
      )}
      {select('productLine', 'Product line', options(types?.productLines ?? []))}
      {select('datakind', 'Datakind', options(types?.datakinds ?? []))}
    </Space>
  );
}

/** Filters by brand, locale, product line and datakind, then the matching pipelines (docs/product.md §8.4). */
export function PipelinePicker({ data, loading, roles, filter, onFilter, selectedId, onSelect }: PipelinePickerProps) {
  const versions = seesVersions(roles);
  const list = filterPipelines(data?.pipelines ?? [], filter);
  return (
    <div className="gdb-pipeline-picker">
      <PipelineFilters data={data} filter={filter} onFilter={onFilter} />
      <Spin spinning={loading}>
        <ListBox
          items={list}
          keyOf={(p) => p._id}
          selectedKey={selectedId}
          onSelect={onSelect}
          label="Pipelines"
          emptyText={loading ? 'Loading pipelines…' : 'No pipeline matches these filters.'}
        >
          {(p, selected) => (
            <Space>
              <Typography.Text strong={selected}>{p.name}</Typography.Text>
              {p.isMaster && <Tag color="purple">master</Tag>}
              {versions && <Tag>v{p.version}</Tag>}
              {versions && (p.vLocked ? <LockOutlined aria-label="locked" /> : <EditOutlined aria-label="editable" />)}
            </Space>
          )}
        </ListBox>
      </Spin>
    </div>
  );
}
