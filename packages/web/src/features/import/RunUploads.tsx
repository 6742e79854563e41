import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { LastList } from '@gdb/shared/uploads/upload.schemas';
import { Card, Space, Typography } from 'antd';
import { FileName } from '../../ui/FileName.tsx';
import { formatLogDate } from '../../ui/LogView.tsx';
import { PlainList } from '../../ui/PlainList.tsx';
import { uploadSources } from '../../ui/uploads/sources.ts';
import { UploadMarks } from '../../ui/uploads/UploadMarks.tsx';
import { UploadStatusIcon } from '../../ui/uploads/UploadStatusIcon.tsx';
import { runUploads } from './wizard-rules.ts';

/** Step 4's last uploads: per data source, every upload the run will take, so no older file is merged unseen. */
export function RunUploads({ pipeline, lists }: { pipeline: PipelineView; lists: readonly LastList[] }) {
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Title level={3} className="gdb-section-title">
        Uploads this import takes
      </Typography.Title>
      {uploadSources(pipeline).map((s) => {
        const rows = runUploads(s.dataSubKind, lists);
        return (
          <Card key={s.dataSubKind} size="small" title={s.dataSubKind}>
            <PlainList
              items={rows}
              keyOf={(u) => u._id}
              label={`Uploads of ${s.dataSubKind} this import takes`}
              emptyText="No enabled valid upload."
            >
              {(u) => (
                <Space className="gdb-upload-row">
                  <UploadStatusIcon status="valid" />
                  <FileName name={u.originalFilename ?? '[Unknown]'} />
                  <Typography.Text type="secondary">{formatLogDate(u.createdAt)}</Typography.Text>
                  <UploadMarks upload={u} />
                </Space>
              )}
            </PlainList>
          </Card>
        );
      })}
    </Space>
  );
}
