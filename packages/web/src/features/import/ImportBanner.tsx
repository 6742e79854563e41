import type { LiveImport } from '@gdb/shared/live/live.schemas';
import { Alert } from 'antd';
import { formatLogDate } from '../../ui/LogView.tsx';
import { useLiveImports } from '../../ui/useLiveImports.ts';

const STARTED: Record<string, string> = {
  immediate: 'The import has been started.',
  scheduled: 'The import has been scheduled.',
  repeat: 'The repeat job has been saved.',
  sequential: 'The selected pipelines are running one after the other.',
};

type Banner = { type: 'success' | 'info' | 'warning' | 'error'; text: string };

/** The banner for the job just made, then for its import as the live channel reports it. */
function bannerOf(kind: string, imp: LiveImport | undefined): Banner {
  const started: Banner = { type: 'success', text: STARTED[kind] ?? 'The import job has been created.' };
  if (!imp) return started;
  switch (imp.state) {
    case 'done':
      return imp.success === false
        ? { type: 'error', text: 'The import has ended without success: see its logs.' }
        : { type: 'success', text: 'The import is done.' };
    case 'failed':
      return { type: 'error', text: 'The import has failed: see its logs.' };
    case 'aborted':
      return { type: 'warning', text: 'The import has been aborted.' };
    case 'busy':
    case 'progress':
    case 'sequential':
      return { type: 'info', text: `The import is running (${imp.progress} %).` };
    default:
      return imp.scheduledAt ? { type: 'info', text: `The import will run at ${formatLogDate(imp.scheduledAt)}.` } : started;
  }
}

/** Step 5's banner: follows the import from 'started' to done, failed or aborted. */
export function ImportBanner({ kind, importId }: { kind: string; importId: string }) {
  const live = useLiveImports({ ids: [importId] });
  const banner = bannerOf(kind, live.byId.get(importId));
  return (
    <div role="status" aria-live="polite">
      <Alert type={banner.type} showIcon title={banner.text} />
    </div>
  );
}
