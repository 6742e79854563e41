import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { LastList } from '@gdb/shared/uploads/upload.schemas';
import { Space } from 'antd';
import { SourceUploads, type UploadRow } from '../../ui/uploads/SourceUploads.tsx';
import { uploadSources } from '../../ui/uploads/sources.ts';

/** The uploads of one data source: this session's first (live), else the newest of the last list. */
function rowsOf(kind: string, session: readonly UploadRow[], lists: readonly LastList[]): UploadRow[] {
  const mine = session.filter((u) => u.dataSubKind === kind);
  if (mine.length) return mine;
  const first = lists.find((l) => l.dataSubKind === kind)?.data[0];
  return first ? [first] : [];
}

/** Step 3: per data source, the uploads beside their live logs, oldest line first. */
export function ProcessStep({
  pipeline,
  session,
  lists,
}: {
  pipeline: PipelineView;
  session: readonly UploadRow[];
  lists: readonly LastList[];
}) {
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {uploadSources(pipeline).map((s) => (
        // The check of a file reads from its first line to its verdict.
        <SourceUploads key={s.dataSubKind} kind={s.dataSubKind} rows={rowsOf(s.dataSubKind, session, lists)} oldestFirst />
      ))}
    </Space>
  );
}
