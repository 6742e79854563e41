import { Space, Tag, Typography } from 'antd';
import { FileName } from '../../ui/FileName.tsx';
import { formatLogDate, LiveLogView } from '../../ui/LogView.tsx';
import { PlainList } from '../../ui/PlainList.tsx';
import { UploadMarks } from '../../ui/uploads/UploadMarks.tsx';
import { UploadStatusIcon } from '../../ui/uploads/UploadStatusIcon.tsx';
import { useLiveUploads } from '../../ui/useLiveUploads.ts';
import '../../ui/uploads/uploads.css';

/** The uploads sent from this page, newest first, each with its live status, and their live logs. */
export function SentUploads({ ids }: { ids: readonly string[] }) {
  const { uploads } = useLiveUploads(ids);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {uploads.length > 0 && (
        <PlainList items={uploads} keyOf={(u) => u._id} label="Sent files" emptyText="">
          {(u) => (
            <Space className="gdb-upload-row">
              <UploadStatusIcon status={u.status} />
              <Tag>{u.dataSubKind}</Tag>
              <FileName name={u.originalFilename ?? '[Unknown]'} />
              <Typography.Text type="secondary">{formatLogDate(u.createdAt)}</Typography.Text>
              <UploadMarks upload={u} />
            </Space>
          )}
        </PlainList>
      )}
      <LiveLogView selection={ids.length ? { uploadId: ids } : null} />
    </Space>
  );
}
