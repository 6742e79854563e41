import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Row, Space } from 'antd';
import { useState } from 'react';
import { useUserPipelines } from '../../ground/calls/pipelines.ts';
import { exportUploads, useLastUploads } from '../../ground/calls/uploads.ts';
import { CALL_FAILURES } from '../../ground/request/call-failures.ts';
import { useSessionUser } from '../../ground/session/session.ts';
import { PipelinePicker } from '../../ui/pipelines/PipelinePicker.tsx';
import { EMPTY_FILTER, type PipelineFilter } from '../../ui/pipelines/pipeline-filter.ts';
import { latestOutputs } from './api.ts';
import { FilesTable } from './FilesTable.tsx';

/** Download latest files (/export/index): a pipeline's last input files and latest output files. */
export function ExportPage() {
  const roles = useSessionUser()?.roles.map((r) => r.name) ?? [];
  const [filter, setFilter] = useState<PipelineFilter>(EMPTY_FILTER);
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  const [inputs, setInputs] = useState<string[]>([]);
  const [outputs, setOutputs] = useState<string[]>([]);
  const [exporting, setExporting] = useState(false);
  const pipelines = useUserPipelines();
  const last = useLastUploads(pipelineId);
  const out = useQuery({
    queryKey: ['export', 'outputs', pipelineId ?? ''],
    queryFn: ({ signal }) => latestOutputs(pipelineId ?? '', signal),
    enabled: !!pipelineId,
  });
  const selectPipeline = (p: PipelineView) => {
    setPipelineId(p._id);
    setInputs([]);
    setOutputs([]);
  };
  const chosen = [...inputs, ...outputs];
  const exportChosen = async () => {
    setExporting(true);
    try {
      await exportUploads(chosen);
    } catch (error) {
      // A failed download is only logged (docs/product.md §13).
      console.error(CALL_FAILURES.exportUploads, error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Row gutter={16}>
      <Col xs={24} lg={11}>
        <Card title="Pipelines">
          <PipelinePicker
            data={pipelines.data}
            loading={pipelines.isLoading}
            roles={roles}
            filter={filter}
            onFilter={setFilter}
            selectedId={pipelineId}
            onSelect={selectPipeline}
          />
        </Card>
      </Col>
      <Col xs={24} lg={13}>
        <Card
          title="Download latest files"
          extra={
            <Button type="primary" disabled={chosen.length === 0} loading={exporting} onClick={() => void exportChosen()}>
              Export
            </Button>
          }
        >
          <Space orientation="vertical" style={{ width: '100%' }}>
            <FilesTable
              title="Input files"
              files={(last.data ?? []).flatMap((l) => l.data)}
              loading={last.isFetching}
              selected={inputs}
              onSelect={setInputs}
            />
            <FilesTable
              title="Output files"
              files={out.data ?? []}
              loading={out.isFetching}
              selected={outputs}
              onSelect={setOutputs}
            />
          </Space>
        </Card>
      </Col>
    </Row>
  );
}
