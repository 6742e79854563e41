import { versionLabel } from '@gdb/shared/versions/versions.schemas';
import { PUBLISH_TEXTS } from './publish-texts.ts';

/** The path a first publish proposes: the pipeline's name as a path (the server's own default, docs/decisions.md). */
export function defaultEndpointPath(pipelineName: string, pipelineId: string): string {
  return pipelineName.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || pipelineId;
}

/** What a published row says of its pipeline. */
export interface PublishedPipeline {
  pipelineName?: string | null | undefined;
  pipelineVersion?: number | null | undefined;
  pipelineVLocked?: boolean | null | undefined;
}

/** The pipeline's name and version label, or 'Err: NO PIPELINE' when it is gone. */
export function pipelineLabel(row: PublishedPipeline): string {
  if (!row.pipelineName) return PUBLISH_TEXTS.noPipeline;
  if (row.pipelineVersion === null || row.pipelineVersion === undefined) return row.pipelineName;
  return `${row.pipelineName} ${versionLabel({ version: row.pipelineVersion, vLocked: row.pipelineVLocked === true })}`;
}

/** The rows whose texts hold the search, ignoring case; every row for an empty search. */
export function searchRows<T>(
  rows: readonly T[],
  search: string,
  texts: (row: T) => readonly (string | null | undefined)[],
): T[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...rows];
  return rows.filter((r) => texts(r).some((t) => (t ?? '').toLowerCase().includes(q)));
}
