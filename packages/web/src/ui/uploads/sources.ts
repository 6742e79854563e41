import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';

/** The file types a data source's file picker offers, by its content type. */
export const ACCEPT: Record<string, string> = {
  csv: '.csv,text/csv',
  excel: '.xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel',
  xml: '.xml,application/xml,text/xml',
  json: '.json,application/json',
};

/** Sources the user uploads into: manual ones not taken from the master. */
export function uploadSources(p: PipelineView): DataSource[] {
  return p.dataSources.filter((s) => s.connectorType === 'manual' && !s.dataFromMaster);
}
