import { parseDownloadReference } from '@gdb/shared/imports/import-rules';
import { Space } from 'antd';
import { Link } from 'react-router';
import { exportUploads } from '../../ground/calls/uploads.ts';
import { LiveLogView } from '../../ui/LogView.tsx';
import { ImportBanner } from './ImportBanner.tsx';

/** A log line naming an output file downloads it (docs/product.md §12.4); a failed download is only logged. */
function onDownloadReference(log: { message: string }) {
  const ref = parseDownloadReference(log.message);
  if (ref) exportUploads([ref.uploadId]).catch((error: unknown) => console.error('export failed', error));
}

/** Step 5: the job's banner, following its import, and the import's live logs. */
export function ImportDetails({
  created,
  logbookLink,
}: {
  created: { kind: string; importId: string } | null;
  /** The import in the logbook, for those who may open it. */
  logbookLink: string | null;
}) {
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {created ? <ImportBanner kind={created.kind} importId={created.importId} /> : <p>No import yet.</p>}
      {logbookLink && <Link to={logbookLink}>See this import in the logbook</Link>}
      <LiveLogView selection={created ? { importId: created.importId } : null} onInsert={onDownloadReference} />
    </Space>
  );
}
