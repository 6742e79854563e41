import { Card, Col, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { FileName } from '../FileName.tsx';
import { ListBox } from '../ListBox.tsx';
import { formatLogDate, LiveLogView } from '../LogView.tsx';
import { UploadStatusIcon } from './UploadStatusIcon.tsx';
import './uploads.css';

/** An upload as the lists of a data source show it. */
export interface UploadRow {
  _id: string;
  dataSubKind: string;
  status: string;
  createdAt: string;
  originalFilename: string | null;
}

/** One data source: its uploads, and the live logs of the chosen one (the newest by default), newest line first unless `oldestFirst`. */
export function SourceUploads({ kind, rows, oldestFirst = false }: { kind: string; rows: UploadRow[]; oldestFirst?: boolean }) {
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
          <LiveLogView
            selection={current ? { uploadId: current } : null}
            maxHeight={300}
            showDataSubKind={false}
            oldestFirst={oldestFirst}
          />
        </Col>
      </Row>
    </Card>
  );
}
