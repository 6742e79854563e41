import { Button, Empty, Spin, Typography } from 'antd';
import { useRef, useState } from 'react';
import { NameDialog } from '../../ui/dialog/NameDialog.tsx';
import { Explorer } from '../../ui/explorer/index.ts';
import { useEditorHeight } from '../../ui/useEditorHeight.ts';
import { VersionBar } from '../../ui/versions/VersionBar.tsx';
import { PipelineForm, type PipelineFormHandle } from './PipelineForm.tsx';
import { PIPELINE_TEXTS } from './pipeline-texts.ts';
import { usePipelineDocument } from './usePipelineDocument.ts';
import './pipelines.css';

/** The pipeline container is the window's height less this many pixels (resizes debounced 66 ms). */
const CONTAINER_OFFSET = 60;

/** Pipelines (/manage/pipeline, route ManagePipeline with `?id`): the pipeline folders on the left, the open one's version bar and form. */
export function PipelinesPage() {
  const doc = usePipelineDocument();
  const height = useEditorHeight(CONTAINER_OFFSET);
  const form = useRef<PipelineFormHandle>(null);
  const [asking, setAsking] = useState(false);
  const { current } = doc;
  const save = async () => {
    const value = await form.current?.validValue();
    if (value) await doc.save(value);
  };

  return (
    <div className="gdb-pipeline-editor" style={{ height }}>
      <aside className="gdb-pipeline-left" aria-label="Pipelines">
        <Explorer
          kind="pipeline"
          label="Pipelines"
          selectedId={current?._id ?? null}
          onOpen={(id) => void doc.openAsked(id)}
          onCreateDocument={doc.createIn}
          height={Math.max(240, height - 60)}
        />
      </aside>
      <section className="gdb-pipeline-centre" aria-label="Pipeline editor">
        <div className="gdb-pipeline-bar">
          <Typography.Title level={4}>{current ? PIPELINE_TEXTS.title(current) : ''}</Typography.Title>
          <Button onClick={() => setAsking(true)}>{PIPELINE_TEXTS.newPipeline}</Button>
          {current && (
            <Button type="primary" disabled={doc.readOnly} loading={doc.saving} onClick={() => void save()}>
              {PIPELINE_TEXTS.save}
            </Button>
          )}
        </div>
        {doc.loading && <Spin />}
        {!current && !doc.loading && <Empty description={doc.loadError ? doc.loadError.message : PIPELINE_TEXTS.choose} />}
        {current && (
          <>
            <VersionBar
              kind="pipeline"
              path="/pipelines"
              doc={current}
              dirty={doc.dirty}
              onOpen={doc.openVersion}
              onChanged={() => doc.openVersion(current._id)}
            />
            <div className="gdb-pipeline-form">
              <PipelineForm ref={form} doc={current} readOnly={doc.readOnly} onDirty={doc.setDirty} />
            </div>
          </>
        )}
      </section>
      <NameDialog
        open={asking}
        title={PIPELINE_TEXTS.newPipeline}
        confirmText="Create"
        onConfirm={async (name) => {
          if (await doc.createNew(name)) setAsking(false);
        }}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
}
