import {
  ACTIVITY_KIND_LABELS,
  ACTIVITY_KINDS,
  type ActivityEntry,
  type ActivityKind,
  type ActivityQuery,
} from '@gdb/shared/activity/activity.schemas';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Input, Select, Space, Table, type TableColumnsType, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { formatLogDate } from '../../ui/LogView.tsx';
import { activityPage, exportActivity } from './api.ts';

const PAGE_SIZE = 50;

/** What changed, in a line: the cell and its values, the version numbers, the roles or badges. */
function changeText(e: ActivityEntry): string {
  const d = e.details as Record<string, unknown>;
  const said = (v: unknown) =>
    v === null || v === undefined
      ? '(no value)'
      : Array.isArray(v)
        ? v.join(', ') || '(none)'
        : typeof v === 'object'
          ? JSON.stringify(v)
          : String(v);
  switch (e.kind) {
    case 'cell-corrected':
      return `Row ${said(d.row)}, ${said(d.field)}: ${said(d.from)} → ${said(d.to)}`;
    case 'row-removed':
    case 'row-restored':
      return `Row ${said(d.row)}`;
    case 'corrected-file':
      return `${said(d.file)}: ${said(d.cells)} cells corrected, ${said(d.removed)} rows removed`;
    case 'document-updated':
      return d.name ? `${said(d.name)}: v.${said(d.from)} → v.${said(d.to)}` : '';
    case 'user-roles':
      return `${said(d.from)} → ${said(d.to)}`;
    case 'user-badges':
      return 'Badges changed';
    default:
      return '';
  }
}

const COLUMNS: TableColumnsType<ActivityEntry> = [
  { title: 'When', dataIndex: 'at', width: 170, render: (at: string) => formatLogDate(at) },
  { title: 'Who', dataIndex: 'actor', width: 160 },
  { title: 'What', dataIndex: 'kind', width: 170, render: (k: ActivityKind) => ACTIVITY_KIND_LABELS[k] },
  {
    title: 'Document or user',
    key: 'subject',
    render: (_, e) =>
      e.targetUser ?? (e.documentName ? `${e.documentName}${e.documentVersion ? ` (v.${e.documentVersion})` : ''}` : ''),
  },
  { title: 'Change', key: 'change', render: (_, e) => changeText(e) },
];

/** The Activity page (/activity/index): who changed what and when, filtered, paged and exported. */
export function ActivityPage() {
  const [actor, setActor] = useState('');
  const [document, setDocument] = useState('');
  const [kind, setKind] = useState<ActivityKind | undefined>(undefined);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const [failure, setFailure] = useState<string | null>(null);
  const filters: ActivityQuery = {
    actor: actor || undefined,
    document: document || undefined,
    kind,
    from: range?.[0]?.startOf('day').toISOString(),
    to: range?.[1]?.endOf('day').toISOString(),
    offset: (page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  };
  const list = useQuery({ queryKey: ['activity', filters], queryFn: ({ signal }) => activityPage(filters, signal) });
  const filtered =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  return (
    <Card
      title="Activity"
      extra={
        <Button
          onClick={() => exportActivity(filters).catch((e: unknown) => setFailure(e instanceof Error ? e.message : String(e)))}
        >
          Export
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search aria-label="Who" placeholder="Who" onSearch={filtered(setActor)} style={{ width: 200 }} />
        <Select
          aria-label="What"
          placeholder="What"
          allowClear
          style={{ width: 220 }}
          value={kind}
          options={ACTIVITY_KINDS.map((k) => ({ value: k, label: ACTIVITY_KIND_LABELS[k] }))}
          onChange={filtered(setKind)}
        />
        <Input.Search aria-label="Document" placeholder="Document" onSearch={filtered(setDocument)} style={{ width: 220 }} />
        <DatePicker.RangePicker
          aria-label="Dates"
          onChange={(v) => filtered(setRange)(v as [Dayjs | null, Dayjs | null] | null)}
        />
      </Space>
      {(failure || list.error) && (
        <Alert type="error" title={failure ?? String(list.error?.message)} style={{ marginBottom: 12 }} />
      )}
      <Table<ActivityEntry>
        rowKey="_id"
        size="small"
        loading={list.isLoading}
        columns={COLUMNS}
        dataSource={list.data?.entries ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
      />
      <Typography.Paragraph type="secondary">Documents your badges do not open are not named.</Typography.Paragraph>
    </Card>
  );
}
