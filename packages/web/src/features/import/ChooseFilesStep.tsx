import { InboxOutlined } from '@ant-design/icons';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { FILE_SIZE_TIP, type LastList, MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import { App, Button, Card, Space, Typography, Upload } from 'antd';
import { FileName } from '../../ui/FileName.tsx';
import { formatLogDate } from '../../ui/LogView.tsx';
import { PlainList } from '../../ui/PlainList.tsx';
import { PublishPanel } from '../../ui/publish/PublishPanel.tsx';
import { spaceOpensFilePicker } from '../../ui/spaceOpensFilePicker.ts';
import { ACCEPT, uploadSources } from '../../ui/uploads/sources.ts';
import { TakeSwitch, UploadMarks } from '../../ui/uploads/UploadMarks.tsx';
import { UploadStatusIcon } from '../../ui/uploads/UploadStatusIcon.tsx';
import { useColumnMapping } from './useColumnMapping.tsx';
import { publishSources } from './wizard-rules.ts';

export interface ChooseFilesStepProps {
  pipeline: PipelineView;
  lists: readonly LastList[];
  chosen: ReadonlyMap<string, File>;
  onChoose: (dataSubKind: string, file: File | null) => void;
  onToggle: (uploadId: string, enabled: boolean) => void;
  missingMessage: string | null;
}

/** Step 2: a drop zone and the 'Last uploaded list' per data source; publish panels for endpoints and listeners. */
export function ChooseFilesStep({ pipeline, lists, chosen, onChoose, onToggle, missingMessage }: ChooseFilesStepProps) {
  const { message } = App.useApp();
  const mapping = useColumnMapping(pipeline._id);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {mapping.dialog}
      {missingMessage && <Typography.Text type="danger">{missingMessage}</Typography.Text>}
      {uploadSources(pipeline).map((source) => {
        const file = chosen.get(source.dataSubKind);
        const last = lists.find((l) => l.dataSubKind === source.dataSubKind)?.data ?? [];
        return (
          <Card key={source.dataSubKind} size="small" title={source.dataSubKind} onKeyDown={spaceOpensFilePicker}>
            <Upload.Dragger
              accept={ACCEPT[source.contentType]}
              multiple={false}
              showUploadList={false}
              aria-label={`File for ${source.dataSubKind}`}
              beforeUpload={(f) => {
                if (f.size >= MAX_FILE_BYTES) message.error(FILE_SIZE_TIP);
                else void mapping.offer(source, f, () => onChoose(source.dataSubKind, f));
                return false;
              }}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p>Drop a file here or click to choose one</p>
              <Typography.Text type="secondary">{FILE_SIZE_TIP}</Typography.Text>
            </Upload.Dragger>
            {file && (
              <Space style={{ marginTop: 8, maxWidth: '100%' }} className="gdb-upload-row">
                <FileName name={file.name} />
                <Button size="small" onClick={() => onChoose(source.dataSubKind, null)}>
                  Remove
                </Button>
              </Space>
            )}
            <Typography.Title level={5} style={{ marginTop: 12 }}>
              Last uploaded list
            </Typography.Title>
            <PlainList
              items={last}
              keyOf={(u) => u._id}
              label={`Last uploaded list of ${source.dataSubKind}`}
              emptyText="No upload yet."
              actions={(u) => <TakeSwitch upload={u} onToggle={(on) => onToggle(u._id, on)} />}
            >
              {(u) => (
                <Space className="gdb-upload-row">
                  <UploadStatusIcon status={u.status} />
                  <FileName name={u.originalFilename ?? '[Unknown]'} />
                  <Typography.Text type="secondary">{formatLogDate(u.createdAt)}</Typography.Text>
                  <UploadMarks upload={u} />
                </Space>
              )}
            </PlainList>
          </Card>
        );
      })}
      {publishSources(pipeline).map((source) => (
        <PublishPanel key={source.dataSubKind} pipeline={pipeline} source={source} />
      ))}
    </Space>
  );
}
