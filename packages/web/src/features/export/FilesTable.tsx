import type { UploadView } from '@gdb/shared/uploads/upload.schemas';
import { Table, type TableColumnsType, Typography } from 'antd';
import { FileName } from '../../ui/FileName.tsx';
import { formatLogDate } from '../../ui/LogView.tsx';
import { UploadStatusIcon } from '../../ui/uploads/UploadStatusIcon.tsx';

// A fixed layout keeps the table to its card: the file name takes the room left and is cut with a tooltip.
const columns: TableColumnsType<UploadView> = [
  { title: 'Kind', dataIndex: 'dataSubKind', width: 120, render: (k: string) => <FileName name={k} /> },
  { title: 'Status', dataIndex: 'status', width: 72, render: (s: string) => <UploadStatusIcon status={s} /> },
  { title: 'Date', dataIndex: 'createdAt', width: 170, render: (d: string) => formatLogDate(d) },
  { title: 'Filename', dataIndex: 'originalFilename', render: (f: string | null) => <FileName name={f ?? '[Unknown]'} /> },
];

/** Input or output files with a selection checkbox, Kind, Status icon, Date and Filename (docs/product.md §13). */
export function FilesTable({
  title,
  files,
  loading,
  selected,
  onSelect,
}: {
  title: string;
  files: readonly UploadView[];
  loading: boolean;
  selected: readonly string[];
  onSelect: (ids: string[]) => void;
}) {
  return (
    <div className="gdb-export-files" data-title={title}>
      <Typography.Title level={5}>{title}</Typography.Title>
      <Table<UploadView>
        rowKey="_id"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={[...files]}
        pagination={false}
        tableLayout="fixed"
        locale={{ emptyText: 'No files.' }}
        rowSelection={{ selectedRowKeys: [...selected], onChange: (keys) => onSelect(keys.map(String)) }}
      />
    </div>
  );
}
