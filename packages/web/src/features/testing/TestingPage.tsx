import { FolderAddOutlined } from '@ant-design/icons';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { Button, Card, Col, Empty, Row, Space } from 'antd';
import { useState } from 'react';
import { useUserPipelines } from '../../ground/calls/pipelines.ts';
import { uploadFiles } from '../../ground/calls/uploads.ts';
import { useSessionUser } from '../../ground/session/session.ts';
import { PipelineFilters } from '../../ui/pipelines/PipelinePicker.tsx';
import { EMPTY_FILTER, filterPipelines, type PipelineFilter } from '../../ui/pipelines/pipeline-filter.ts';
import { CreateFolderDialog } from './CreateFolderDialog.tsx';
import { PipelineTree } from './PipelineTree.tsx';
import { SentUploads } from './SentUploads.tsx';
import { SourceFiles } from './SourceFiles.tsx';
import './testing.css';

/** The uploads sent for one pipeline, newest first. */
interface Sent {
  pipelineId: string | null;
  ids: string[];
}

/** The testing view (docs/product.md §14): pick a pipeline in the folder tree, send files, follow their logs. */
export function TestingPage() {
  const roles = useSessionUser()?.roles.map((r) => r.name) ?? [];
  const [filter, setFilter] = useState<PipelineFilter>(EMPTY_FILTER);
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  const [folders, setFolders] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const [chosen, setChosen] = useState<Map<string, File>>(new Map());
  const [sent, setSent] = useState<Sent>({ pipelineId: null, ids: [] });
  const [sending, setSending] = useState(false);
  // A new key empties the file inputs after a send.
  const [inputsKey, setInputsKey] = useState(0);

  const pipelines = useUserPipelines();
  const list = filterPipelines(pipelines.data?.pipelines ?? [], filter);
  const pipeline = pipelines.data?.pipelines.find((p) => p._id === pipelineId) ?? null;
  const sentIds = sent.pipelineId === pipelineId ? sent.ids : [];

  const select = (p: PipelineView | null) => {
    if (p?._id === pipelineId) return;
    setPipelineId(p?._id ?? null);
    setChosen(new Map());
  };

  const choose = (kind: string, file: File | null) =>
    setChosen((m) => {
      const next = new Map(m);
      if (file) next.set(kind, file);
      else next.delete(kind);
      return next;
    });

  const createFolder = (name: string) => {
    setFolders((f) => [...f, name]);
    setCreating(false);
    select(null);
    console.info(`Folder '${name}' is shown on this page only: folders are kept by the explorer.`);
  };

  const send = async () => {
    if (!pipeline || chosen.size === 0 || sending) return;
    const target = pipeline._id;
    setSending(true);
    try {
      const ids = await uploadFiles(target, chosen);
      setSent((s) => ({ pipelineId: target, ids: [...ids, ...(s.pipelineId === target ? s.ids : [])] }));
      setChosen(new Map());
      setInputsKey((k) => k + 1);
    } catch (error) {
      // docs/product.md §14: upload errors in the testing view are only logged.
      console.error('error while uploading files', error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={8}>
        <Card>
          <PipelineFilters data={pipelines.data} filter={filter} onFilter={setFilter} />
          <div className="gdb-testing-tree-actions">
            <Button icon={<FolderAddOutlined />} onClick={() => setCreating(true)}>
              Create Folder
            </Button>
          </div>
          <PipelineTree
            pipelines={list}
            folders={folders}
            loading={pipelines.isLoading}
            roles={roles}
            selectedId={pipelineId}
            onSelect={select}
          />
        </Card>
      </Col>
      <Col xs={24} lg={16}>
        {pipeline ? (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Card title={pipeline.name}>
              <SourceFiles
                key={`${pipeline._id}-${inputsKey}`}
                pipeline={pipeline}
                chosen={chosen}
                onChoose={choose}
                sending={sending}
                onSend={() => void send()}
              />
            </Card>
            <Card title="Logs">
              <SentUploads ids={sentIds} />
            </Card>
          </Space>
        ) : (
          <Card>
            <Empty description="Choose a pipeline to send files." />
          </Card>
        )}
      </Col>
      <CreateFolderDialog open={creating} onCreate={createFolder} onCancel={() => setCreating(false)} />
    </Row>
  );
}
