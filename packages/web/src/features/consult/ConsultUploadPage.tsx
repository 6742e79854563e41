import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { Card, Col, Empty, Row, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useUserPipelines } from '../../ground/calls/pipelines.ts';
import { useLastUploads } from '../../ground/calls/uploads.ts';
import { useSessionUser } from '../../ground/session/session.ts';
import { PipelinePicker } from '../../ui/pipelines/PipelinePicker.tsx';
import { EMPTY_FILTER, type PipelineFilter } from '../../ui/pipelines/pipeline-filter.ts';
import { SourceUploads } from '../../ui/uploads/SourceUploads.tsx';
import { useLiveUploads } from '../../ui/useLiveUploads.ts';

/** Consult upload (/consult/upload): per data source of the chosen pipeline, its last uploads and their logs. */
export function ConsultUploadPage() {
  const roles = useSessionUser()?.roles.map((r) => r.name) ?? [];
  const [filter, setFilter] = useState<PipelineFilter>(EMPTY_FILTER);
  const [pipeline, setPipeline] = useState<PipelineView | null>(null);
  const pipelines = useUserPipelines();
  const last = useLastUploads(pipeline?._id ?? null);
  const ids = useMemo(() => (last.data ?? []).flatMap((l) => l.data.map((u) => u._id)), [last.data]);
  const live = useLiveUploads(ids);
  const kinds = pipeline?.dataSources.map((s) => s.dataSubKind) ?? [];

  return (
    <Row gutter={16}>
      <Col xs={24} lg={8}>
        <Card title="Pipelines">
          <PipelinePicker
            data={pipelines.data}
            loading={pipelines.isLoading}
            roles={roles}
            filter={filter}
            onFilter={setFilter}
            selectedId={pipeline?._id ?? null}
            onSelect={setPipeline}
          />
        </Card>
      </Col>
      <Col xs={24} lg={16}>
        {pipeline ? (
          <Space orientation="vertical" style={{ width: '100%' }}>
            {kinds.map((kind) => (
              <SourceUploads
                key={`${pipeline._id}-${kind}`}
                kind={kind}
                rows={(last.data?.find((l) => l.dataSubKind === kind)?.data ?? []).map((u) => live.byId.get(u._id) ?? u)}
              />
            ))}
          </Space>
        ) : (
          <Card>
            <Empty description="Choose a pipeline to see its uploads." />
          </Card>
        )}
      </Col>
    </Row>
  );
}
