import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useSessionUser } from '../../ground/session/session.ts';
import { useLiveUploads } from '../../ui/useLiveUploads.ts';
import { lastUploads, userPipelines } from '../import/api.ts';
import { PipelinePicker } from '../import/PipelinePicker.tsx';
import { SourceUploads } from '../import/ProcessStep.tsx';
import { EMPTY_FILTER, type PipelineFilter } from '../import/pipeline-filter.ts';
import { importKeys } from '../import/queries.ts';

/** Consult upload (/consult/upload): per data source of the chosen pipeline, its last uploads and their logs. */
export function ConsultUploadPage() {
  const roles = useSessionUser()?.roles.map((r) => r.name) ?? [];
  const [filter, setFilter] = useState<PipelineFilter>(EMPTY_FILTER);
  const [pipeline, setPipeline] = useState<PipelineView | null>(null);
  const pipelines = useQuery({ queryKey: importKeys.userPipelines, queryFn: ({ signal }) => userPipelines(signal) });
  const last = useQuery({
    queryKey: importKeys.last(pipeline?._id ?? ''),
    queryFn: ({ signal }) => lastUploads(pipeline?._id ?? '', signal),
    enabled: !!pipeline,
  });
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
