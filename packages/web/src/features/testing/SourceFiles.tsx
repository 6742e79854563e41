import { SendOutlined } from '@ant-design/icons';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { FILE_SIZE_TIP, MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import { Button, Space, Typography } from 'antd';
import { useId, useState } from 'react';
import { ACCEPT, uploadSources } from '../../ui/uploads/sources.ts';

export interface SourceFilesProps {
  pipeline: PipelineView;
  chosen: ReadonlyMap<string, File>;
  onChoose: (dataSubKind: string, file: File | null) => void;
  sending: boolean;
  onSend: () => void;
}

/** One file input per manual data source, labelled by its dataSubKind, and the Send button. */
export function SourceFiles({ pipeline, chosen, onChoose, sending, onSend }: SourceFilesProps) {
  const id = useId();
  const [refused, setRefused] = useState<ReadonlySet<string>>(new Set());
  const sources = uploadSources(pipeline);
  const tipId = `${id}-tip`;

  const pick = (kind: string, input: HTMLInputElement) => {
    const file = input.files?.[0] ?? null;
    const tooLarge = !!file && file.size >= MAX_FILE_BYTES;
    // A refused file must not stay in the input, or the browser would show it as chosen.
    if (tooLarge) input.value = '';
    setRefused((set) => {
      const next = new Set(set);
      if (tooLarge) next.add(kind);
      else next.delete(kind);
      return next;
    });
    onChoose(kind, tooLarge ? null : file);
  };

  if (sources.length === 0) {
    return <Typography.Text type="secondary">No data source of this pipeline takes files.</Typography.Text>;
  }
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary" id={tipId}>
        {FILE_SIZE_TIP}
      </Typography.Text>
      {sources.map((source, i) => {
        const inputId = `${id}-${i}`;
        const errorId = `${inputId}-error`;
        const isRefused = refused.has(source.dataSubKind);
        return (
          <div key={source.dataSubKind} className="gdb-testing-source">
            <label htmlFor={inputId}>{source.dataSubKind}</label>
            <input
              id={inputId}
              type="file"
              accept={ACCEPT[source.contentType]}
              disabled={sending}
              aria-invalid={isRefused || undefined}
              aria-describedby={isRefused ? `${tipId} ${errorId}` : tipId}
              onChange={(e) => pick(source.dataSubKind, e.currentTarget)}
            />
            {isRefused && (
              <Typography.Text type="danger" id={errorId} role="alert">
                {FILE_SIZE_TIP}
              </Typography.Text>
            )}
          </div>
        );
      })}
      <Button type="primary" icon={<SendOutlined />} disabled={chosen.size === 0} loading={sending} onClick={onSend}>
        Send
      </Button>
    </Space>
  );
}
