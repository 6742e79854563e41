import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Input, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import type { PublishKind } from '../../ground/calls/published.ts';
import { errorText } from '../../ground/request/failure.ts';
import { KeyNotice, type ShownKey } from '../../ui/publish/KeyNotice.tsx';
import { pipelineLabel, searchRows } from '../../ui/publish/publish-rules.ts';
import { PUBLISH_TEXTS } from '../../ui/publish/publish-texts.ts';
import { hideMeasureRows, useDomRepair } from '../../ui/useDomRepair.ts';
import { type PublishedRow, usePublishedActions } from './usePublishedActions.ts';
import './publish.css';

export interface PublishedListProps<T extends PublishedRow> {
  kind: PublishKind;
  title: string;
  query: UseQueryResult<T[]>;
  columns: TableColumnsType<T>;
  /** The texts of a row the search looks in. */
  searchTexts: (row: T) => readonly (string | null | undefined)[];
  /** Publishes a row's pipeline again; answers the new key when the kind has one. */
  republish: (row: T) => Promise<ShownKey | null>;
  /** The table's least width, past which it scrolls sideways. */
  width: number;
}

/**
 * The Endpoints and Listeners screens (docs/product.md §18.7): Search, Refresh, RE-publish and UN-publish of
 * the selected rows; invalid rows in error style.
 */
export function PublishedList<T extends PublishedRow>(props: PublishedListProps<T>) {
  const { kind, title, query, columns, searchTexts, republish, width } = props;
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const frame = useDomRepair<HTMLDivElement>(hideMeasureRows);
  const all = query.data ?? [];
  const chosen = all.filter((r) => selected.includes(r._id));
  const removed = (id: string) => setSelected((s) => s.filter((x) => x !== id));
  const actions = usePublishedActions(kind, chosen, republish, removed);
  return (
    <div className="gdb-published" ref={frame}>
      <Space className="gdb-published-bar">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Space wrap>
          {/* No clear icon: beside the buttons it is too small a target (axe's target-size). */}
          <Input
            aria-label={`Search ${title.toLowerCase()}`}
            placeholder="Search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <Button loading={query.isFetching && actions.busy === null} onClick={() => void query.refetch()}>
            {PUBLISH_TEXTS.refresh}
          </Button>
          <Button
            disabled={chosen.length === 0}
            loading={actions.busy === 'republish'}
            onClick={() => void actions.republishChosen()}
          >
            RE-publish
          </Button>
          <Button
            danger
            disabled={chosen.length === 0}
            loading={actions.busy === 'unpublish'}
            onClick={() => void actions.unpublishChosen()}
          >
            UN-publish
          </Button>
        </Space>
      </Space>
      {query.error ? <Alert type="error" showIcon role="alert" title={errorText(query.error)} /> : null}
      <KeyNotice keys={actions.keys} />
      <Table<T>
        rowKey="_id"
        size="small"
        loading={query.isLoading}
        columns={columns}
        dataSource={searchRows(all, search, searchTexts)}
        pagination={false}
        scroll={{ x: width }}
        rowClassName={(r) => (r.isValid ? 'gdb-published-row' : 'gdb-published-row gdb-published-invalid')}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (ids) => setSelected(ids.map(String)),
          getCheckboxProps: (r) => ({ 'aria-label': `Select ${pipelineLabel(r)}` }),
        }}
      />
    </div>
  );
}
