import type { RunUpload, UploadsService } from '../uploads/uploads.service.ts';
import type { Say } from './run-context.ts';

/**
 * How often a run looks again at the uploads whose check it waits for, at the latest: it looks at
 * once when a check of this instance ends, so this bounds only the wait for other instances' checks.
 */
const CHECK_POLL_MS = 200;

const stillChecking = (u: RunUpload) => u.status === 'pending' || u.status === 'processing';

const nameOf = (u: RunUpload) => u.originalFilename ?? u._id;

/** Why an upload the run waited for is not taken, or null when it is. */
export function skipReason(upload: RunUpload | undefined, waitedSeconds: number): string | null {
  if (!upload) return 'it no longer exists';
  if (!upload.enabled) return 'it was switched off';
  if (upload.status === 'invalid') return 'its check found it invalid';
  if (stillChecking(upload)) return `its check did not end within ${waitedSeconds} s`;
  return upload.rowsKey === null ? 'its checked rows are not stored' : null;
}

/**
 * Waits for the checks of a data source's uploads still being checked, until `run.deadline`, the
 * run's stop or the end of every check; answers them as they are then, each skipped one said in
 * the import's logs with its reason. It reads them again when a check of this instance ends, and
 * at least every CHECK_POLL_MS: no transaction is held and the event loop stays free.
 */
export async function waitForChecks(
  uploads: Pick<UploadsService, 'current' | 'checkEnded'>,
  checking: readonly RunUpload[],
  kind: string,
  run: { say: Say; signal: AbortSignal; deadline: number },
): Promise<Map<string, RunUpload>> {
  const seconds = Math.max(0, Math.ceil((run.deadline - Date.now()) / 1000));
  await run.say('info', `Waiting up to ${seconds} s for the check of ${checking.map(nameOf).join(', ')}.`, kind);
  const now = new Map<string, RunUpload>();
  let waiting = checking.map((u) => u._id);
  for (;;) {
    run.signal.throwIfAborted();
    const found = await uploads.current(waiting);
    for (const u of found) now.set(u._id, u);
    waiting = found.filter(stillChecking).map((u) => u._id);
    if (waiting.length === 0 || Date.now() >= run.deadline) break;
    await uploads.checkEnded(Math.min(CHECK_POLL_MS, Math.max(0, run.deadline - Date.now())), run.signal);
  }
  run.signal.throwIfAborted();
  for (const u of checking) {
    const reason = skipReason(now.get(u._id), seconds);
    if (reason) await run.say('warn', `Input ${kind}: ${nameOf(u)} skipped: ${reason}.`, kind);
  }
  return now;
}
