import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { LastList } from '@gdb/shared/uploads/upload.schemas';
import { Card, Col, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { FileName } from '../../ui/FileName.tsx';
import { ListBox } from '../../ui/ListBox.tsx';
import { formatLogDate, LiveLogView } from '../../ui/LogView.tsx';
import { UploadStatusIcon } from './UploadStatusIcon.tsx';
import { uploadSources } from './wizard-rules.ts';

export interface UploadRow {
  _id: string;
  dataSubKind: string;
  status: string;
  createdAt: string;
  originalFilename: string | null;
}

/** The uploads of one data source: this session's first (live), else the newest of the last list. */
export function rowsOf(kind: string, session: readonly UploadRow[], lists: readonly LastList[]): UploadRow[] {
  const mine = session.filter((u) => u.dataSubKind === kind);
  if (mine.length) return mine;
  const first = lists.find((l) => l.dataSubKind === kind)?.data[0];
  return first ? [first] : [];
}

/** One data source: its uploads, and the live logs of the chosen one (the newest by default). */
export function SourceUploads({ kind, rows }: { kind: string; rows: UploadRow[] }) {
  const [selected, setSelected] = useState<string | null>(null);
  const current = selected ?? rows[0]?._id ?? null;
  return (
    <Card size="small" title={kind}>
      <Row gutter={16}>
        <Col span={9}>
          <ListBox
            items={rows}
            keyOf={(u) => u._id}
            selectedKey={current}
            onSelect={(u) => setSelected(u._id)}
            label={`Uploads of ${kind}`}
            emptyText="No upload yet."
          >
            {(u, chosen) => (
              <Space className="gdb-upload-row">
                <UploadStatusIcon status={u.status} />
                <FileName name={u.originalFilename ?? '[Unknown]'} strong={chosen} />
                <Typography.Text type="secondary">{formatLogDate(u.createdAt)}</Typography.Text>
              </Space>
            )}
          </ListBox>
        </Col>
        <Col span={15}>
          <LiveLogView selection={current ? { uploadId: current } : null} maxHeight={300} showDataSubKind={false} />
        </Col>
      </Row>
    </Card>
  );
}

/** Step 3: per data source, the uploads beside their live logs. */
export function ProcessStep({
  pipeline,
  session,
  lists,
}: {
  pipeline: PipelineView;
  session: readonly UploadRow[];
  lists: readonly LastList[];
}) {
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {uploadSources(pipeline).map((s) => (
        <SourceUploads key={s.dataSubKind} kind={s.dataSubKind} rows={rowsOf(s.dataSubKind, session, lists)} />
      ))}
    </Space>
  );
}
