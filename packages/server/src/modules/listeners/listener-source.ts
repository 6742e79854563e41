import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';

/** The pipeline's listener data source, if it has one. */
export function listenerSource(pipeline: PipelineView | undefined): DataSource | undefined {
  return pipeline?.dataSources.find((s) => s.connectorType === 'listener');
}
