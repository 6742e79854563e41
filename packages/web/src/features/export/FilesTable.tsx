import type { UploadView } from '@gdb/shared/uploads/upload.schemas';
import { Table, type TableColumnsType, Typography } from 'antd';
import { formatLogDate } from '../../ui/LogView.tsx';
import { UploadStatusIcon } from '../import/UploadStatusIcon.tsx';

const columns: TableColumnsType<UploadView> = [
  { title: 'Kind', dataIndex: 'dataSubKind' },
  { title: 'Status', dataIndex: 'status', render: (s: string) => <UploadStatusIcon status={s} /> },
  { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatLogDate(d) },
  { title: 'Filename', dataIndex: 'originalFilename', render: (f: string | null) => f ?? '[Unknown]' },
];

/** Input or output files with a selection checkbox, Kind, Status icon, Date and Filename (spec 000 §2.8). */
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
        locale={{ emptyText: 'No files.' }}
        rowSelection={{ selectedRowKeys: [...selected], onChange: (keys) => onSelect(keys.map(String)) }}
      />
    </div>
  );
}
