import type { ImportRecord } from '@gdb/shared/imports/import.schemas';
import { LOGBOOK_PAGE_SIZE } from '@gdb/shared/imports/import.schemas';
import { IMPORT_MESSAGES, parseDownloadReference } from '@gdb/shared/imports/import-rules';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Space, Table } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { exportUploads } from '../../ground/calls/uploads.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { useSessionUser } from '../../ground/session/session.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { LiveLogView } from '../../ui/LogView.tsx';
import { useLiveImports } from '../../ui/useLiveImports.ts';
import { abortAll, abortImport, consultKeys, listAll, listAllFilters } from './api.ts';
import { LogbookFilters } from './LogbookFilters.tsx';
import { logbookColumns } from './logbook-columns.tsx';
import { DEFAULT_FILTERS, detailsTitle, type LogbookFilters as Filters, listAllQuery } from './logbook-rules.ts';

const STOP_ALL_QUESTION = 'Do you want to stop all pipelines ?';

/** One page of the logbook with the live states of its imports; the first page also picks up imports created meanwhile. */
function useLogbookImports(filters: Filters, page: number, wide: boolean) {
  const queryClient = useQueryClient();
  const query = listAllQuery(filters, page);
  const lists = useQuery({ queryKey: consultKeys.filters, queryFn: ({ signal }) => listAllFilters(signal) });
  const imports = useQuery({
    queryKey: consultKeys.page(query),
    queryFn: ({ signal }) => listAll(query, signal),
    placeholderData: keepPreviousData,
  });
  const records = imports.data?.records ?? [];
  const live = useLiveImports(records.length ? { ids: records.map((r) => r._id) } : null);
  // The first page follows every import, so one created meanwhile appears at the top by itself
  // (not a plain user's, whose logbook lists their pipelines' imports only).
  const feed = useLiveImports(page === 0 && wide ? { all: true } : null);
  const newestInFeed = feed.docs.at(-1)?._id;
  const seenInFeed = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!newestInFeed || !imports.isSuccess || seenInFeed.current === newestInFeed) return;
    seenInFeed.current = newestInFeed;
    if (!records.some((r) => r._id === newestInFeed)) void queryClient.invalidateQueries({ queryKey: ['consult', 'imports'] });
  }, [newestInFeed, imports.isSuccess, records, queryClient]);
  const rows = useMemo(
    () =>
      records.map((r): ImportRecord => {
        const l = live.byId.get(r._id);
        return l
          ? {
              ...r,
              state: l.state,
              success: l.success ?? r.success,
              startedAt: l.startedAt,
              endAt: l.endAt,
              progress: l.progress,
            }
          : r;
      }),
    [records, live.byId],
  );
  return { lists, imports, rows };
}

/** The logbook (/consult/import): every import with filters, a pager of 9 and the live logs of the chosen one. */
export function LogbookPage() {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const roles = useSessionUser()?.roles.map((r) => r.name) ?? [];
  // A plain user's logbook: no Stop, and no feed of every import.
  const wide = roles.includes('manager') || roles.includes('super-admin');
  // The wizard opens a Later or Repeat job here with time=future, where its waiting import shows.
  const [filters, setFilters] = useState<Filters>(() => ({ ...DEFAULT_FILTERS, future: params.get('time') === 'future' }));
  const [page, setPage] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(params.get('importId'));
  const { lists, imports, rows } = useLogbookImports(filters, page, wide);
  const selected = rows.find((r) => r._id === selectedId) ?? null;

  const report = (error: unknown) => showFailure(error, message.error);

  const stop = async (id: string) => {
    try {
      await abortImport(id);
      message.success(IMPORT_MESSAGES.aborted);
      await queryClient.invalidateQueries({ queryKey: ['consult', 'imports'] });
    } catch (error) {
      report(error);
    }
  };

  const stopAll = async () => {
    if (!(await askConfirmation(modal, STOP_ALL_QUESTION))) return;
    try {
      const answer = await abortAll();
      message.success(answer === true ? IMPORT_MESSAGES.allStopping : 'Unknown error');
      await queryClient.invalidateQueries({ queryKey: ['consult', 'imports'] });
    } catch (error) {
      report(error);
    }
  };

  const onLog = (log: { message: string }) => {
    const ref = parseDownloadReference(log.message);
    if (ref) exportUploads([ref.uploadId]).catch((error: unknown) => console.error('export failed', error));
  };

  const columns = logbookColumns(setSelectedId, wide ? (id) => void stop(id) : null);

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Card
        title="Imports"
        extra={
          roles.includes('super-admin') ? (
            <Button danger onClick={() => void stopAll()}>
              Stop all pipelines
            </Button>
          ) : null
        }
      >
        <LogbookFilters
          lists={lists.data}
          value={filters}
          onChange={(f) => {
            setFilters(f);
            setPage(0);
            // The details follow the list: an import the new filters may hide is no longer shown.
            setSelectedId(null);
          }}
        />
        <Table<ImportRecord>
          rowKey="_id"
          size="small"
          loading={imports.isLoading}
          columns={columns}
          dataSource={rows}
          rowClassName={(r) => (r._id === selectedId ? 'ant-table-row-selected gdb-logbook-row' : 'gdb-logbook-row')}
          onRow={(r) => ({ onClick: () => setSelectedId(r._id), style: { cursor: 'pointer' } })}
          pagination={{
            current: page + 1,
            pageSize: LOGBOOK_PAGE_SIZE,
            total: imports.data?.totalCount ?? 0,
            showSizeChanger: false,
            onChange: (p) => setPage(p - 1),
          }}
        />
      </Card>
      <Card title={detailsTitle(selected)} className="gdb-logbook-details">
        <LiveLogView selection={selectedId ? { importId: selectedId } : null} onInsert={onLog} emptyText="There are no logs." />
      </Card>
    </Space>
  );
}
