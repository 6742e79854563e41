import { FolderAddOutlined } from '@ant-design/icons';
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Space } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { createFolder, folderTreeChanged } from '../../ground/calls/folders.ts';
import { useUserPipelines } from '../../ground/calls/pipelines.ts';
import { uploadFiles } from '../../ground/calls/uploads.ts';
import { Explorer } from '../../ui/explorer/index.ts';
import { PipelineFilters } from '../../ui/pipelines/PipelinePicker.tsx';
import { EMPTY_FILTER, filterPipelines, type PipelineFilter } from '../../ui/pipelines/pipeline-filter.ts';
import { CreateFolderDialog } from './CreateFolderDialog.tsx';
import { SentUploads } from './SentUploads.tsx';
import { SourceFiles } from './SourceFiles.tsx';
import './testing.css';

/** The uploads sent for one pipeline, newest first. */
interface Sent {
  pipelineId: string | null;
  ids: string[];
}

/** The testing view (docs/product.md §14): pick a pipeline in the folder tree, send files, follow their logs. */
/** Folder errors on this page are only logged. */
const logFolderFailure = (error: unknown) => console.error('cannot create folder', error);

export function TestingPage() {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<PipelineFilter>(EMPTY_FILTER);
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [chosen, setChosen] = useState<Map<string, File>>(new Map());
  const [sent, setSent] = useState<Sent>({ pipelineId: null, ids: [] });
  const [sending, setSending] = useState(false);
  // A new key empties the file inputs after a send.
  const [inputsKey, setInputsKey] = useState(0);

  const pipelines = useUserPipelines();
  const list = useMemo(() => filterPipelines(pipelines.data?.pipelines ?? [], filter), [pipelines.data, filter]);
  const offered = useMemo(() => new Set(list.map((p) => p._id)), [list]);
  // The tree shows the pipelines the filters keep, by any version of them.
  const keepLeaf = useCallback((node: TreeNode) => node.versions.some((v) => offered.has(v._id)), [offered]);
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

  const open = (_id: string, node: TreeNode) => {
    const versions = new Set(node.versions.map((v) => v._id));
    const chosen = list.find((p) => versions.has(p._id));
    if (chosen) select(chosen);
  };

  /** A folder in the root of the pipelines; creating closes the dialog and clears the selected pipeline. */
  const addFolder = async (name: string) => {
    setCreating(false);
    select(null);
    try {
      await createFolder({ name, kind: 'pipeline' });
    } catch (error) {
      logFolderFailure(error);
    } finally {
      await folderTreeChanged(queryClient, 'pipeline');
    }
  };

  const send = async () => {
    if (!pipeline || chosen.size === 0 || sending) return;
    const target = pipeline._id;
    setSending(true);
    try {
      const ids = await uploadFiles(target, chosen, 'testing');
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
          <Explorer
            kind="pipeline"
            selectedId={pipelineId}
            onOpen={open}
            keepLeaf={keepLeaf}
            onFailure={logFolderFailure}
            height={480}
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
      <CreateFolderDialog open={creating} onCreate={(name) => void addFolder(name)} onCancel={() => setCreating(false)} />
    </Row>
  );
}
