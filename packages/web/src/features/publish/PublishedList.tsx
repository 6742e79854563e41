import { type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Input, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { type PublishKind, publishedKeys, unpublish } from '../../ground/calls/published.ts';
import { errorText, showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { KeyNotice, type ShownKey } from '../../ui/publish/KeyNotice.tsx';
import { pipelineLabel, searchRows } from '../../ui/publish/publish-rules.ts';
import { PUBLISH_TEXTS } from '../../ui/publish/publish-texts.ts';
import { hideMeasureRows, useDomRepair } from '../../ui/useDomRepair.ts';
import './publish.css';

/** What both screens list: a published pipeline. */
export interface PublishedRow {
  _id: string;
  pipelineId: string;
  pipelineName?: string | null | undefined;
  pipelineVersion?: number | null | undefined;
  pipelineVLocked?: boolean | null | undefined;
  isValid: boolean;
}

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
 * The Endpoints and Listeners screens (spec 002 §2): Search, Refresh, RE-publish and UN-publish of
 * the selected rows. Un-publish removes each row once its deletion is done; re-publish calls once
 * per pipeline, then reloads the list (§4); failures show the server's message (§8).
 */
export function PublishedList<T extends PublishedRow>({ kind, title, query, columns, searchTexts, republish, width }: PublishedListProps<T>) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState<'republish' | 'unpublish' | null>(null);
  const [keys, setKeys] = useState<ShownKey[]>([]);
  const frame = useDomRepair<HTMLDivElement>(hideMeasureRows);
  const all = query.data ?? [];
  const rows = searchRows(all, search, searchTexts);
  const chosen = all.filter((r) => selected.includes(r._id));
  const names = chosen.map(pipelineLabel);

  const removeRow = (id: string) => {
    queryClient.setQueryData<T[]>(publishedKeys.list(kind), (old) => old?.filter((r) => r._id !== id));
    setSelected((s) => s.filter((x) => x !== id));
  };

  const unpublishChosen = async () => {
    if (!(await askConfirmation(modal, PUBLISH_TEXTS.unpublishQuestion(names)))) return;
    setBusy('unpublish');
    try {
      for (const row of chosen) {
        await unpublish(kind, row._id);
        removeRow(row._id);
      }
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setBusy(null);
    }
  };

  const republishChosen = async () => {
    if (!(await askConfirmation(modal, PUBLISH_TEXTS.republishQuestion(names)))) return;
    setBusy('republish');
    const shown: ShownKey[] = [];
    let done = 0;
    for (const row of chosen) {
      try {
        const key = await republish(row);
        if (key) shown.push(key);
        done += 1;
      } catch (error) {
        showFailure(error, message.error);
      }
    }
    setKeys(shown);
    if (done > 0) message.success(PUBLISH_TEXTS.published);
    setBusy(null);
    await queryClient.invalidateQueries({ queryKey: publishedKeys.list(kind) });
  };

  return (
    <div className="gdb-published" ref={frame}>
      <Space className="gdb-published-bar">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        <Space wrap>
          <Input.Search
            allowClear
            aria-label={`Search ${title.toLowerCase()}`}
            placeholder="Search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <Button loading={query.isFetching && busy === null} onClick={() => void query.refetch()}>
            {PUBLISH_TEXTS.refresh}
          </Button>
          <Button disabled={chosen.length === 0} loading={busy === 'republish'} onClick={() => void republishChosen()}>
            RE-publish
          </Button>
          <Button danger disabled={chosen.length === 0} loading={busy === 'unpublish'} onClick={() => void unpublishChosen()}>
            UN-publish
          </Button>
        </Space>
      </Space>
      {query.error ? <Alert type="error" showIcon role="alert" title={errorText(query.error)} /> : null}
      <KeyNotice keys={keys} />
      <Table<T>
        rowKey="_id"
        size="small"
        loading={query.isLoading}
        columns={columns}
        dataSource={rows}
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
