import { EditOutlined, LockOutlined } from '@ant-design/icons';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { localeLabel } from '@gdb/shared/reference/reference.schemas';
import { Empty, Select, Space, Spin, Tag, Typography } from 'antd';
import { type KeyboardEvent, useRef, useState } from 'react';
import type { UserPipelines } from './api.ts';
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

/** Filters by brand, locale, product line and datakind, then the matching pipelines (spec 000 §2.6 step 1). */
export function PipelinePicker({ data, loading, roles, filter, onFilter, selectedId, onSelect }: PipelinePickerProps) {
  const versions = seesVersions(roles);
  const list = filterPipelines(data?.pipelines ?? [], filter);
  const optionRefs = useRef<(HTMLDivElement | null)[]>([]);
  // One option takes the Tab stop: the selected one, else the first; arrows move between them.
  const selectedIndex = list.findIndex((p) => p._id === selectedId);
  const [active, setActive] = useState(0);
  const tabStop = selectedIndex >= 0 ? selectedIndex : Math.min(active, Math.max(list.length - 1, 0));
  const focus = (i: number) => {
    const next = Math.max(0, Math.min(list.length - 1, i));
    setActive(next);
    optionRefs.current[next]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>, i: number, p: PipelineView) => {
    const moves: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: list.length - 1 };
    const to = moves[e.key];
    if (to !== undefined) {
      e.preventDefault();
      focus(to);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onSelect(p);
    }
  };
  return (
    <div className="gdb-pipeline-picker">
      <PipelineFilters data={data} filter={filter} onFilter={onFilter} />
      <Spin spinning={loading}>
        {list.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={loading ? 'Loading pipelines…' : 'No pipeline matches these filters.'}
          />
        ) : (
          <div className="gdb-pipeline-list" role="listbox" aria-label="Pipelines">
            {list.map((p, i) => (
              <div
                key={p._id}
                ref={(el) => {
                  optionRefs.current[i] = el;
                }}
                role="option"
                tabIndex={i === tabStop ? 0 : -1}
                aria-selected={p._id === selectedId}
                className={p._id === selectedId ? 'gdb-pipeline-item gdb-pipeline-selected' : 'gdb-pipeline-item'}
                onClick={() => onSelect(p)}
                onKeyDown={(e) => onKeyDown(e, i, p)}
                onFocus={() => setActive(i)}
              >
                <Space>
                  <Typography.Text strong={p._id === selectedId}>{p.name}</Typography.Text>
                  {p.isMaster && <Tag color="purple">master</Tag>}
                  {versions && <Tag>v{p.version}</Tag>}
                  {versions && (p.vLocked ? <LockOutlined aria-label="locked" /> : <EditOutlined aria-label="editable" />)}
                </Space>
              </div>
            ))}
          </div>
        )}
      </Spin>
    </div>
  );
}
