// One user importing a large file, in a process of its own as a user's browser is: uploads a
// dealers CSV, hears on the live channel when it is checked, runs the pipeline now and hears when
// the import has ended. Started by `run.ts` (`beside`), it answers its timings on its IPC channel,
// so the fifty readers' answers in the bench's own process do not delay what it sends and hears.
import { call, tryRunNow } from './client.ts';
import { answerJob } from './in-process.ts';
import { followLive, followPipelineImports } from './live.ts';
import { dealersCsv, uploadBody } from './plan.ts';

export interface ImportJob {
  baseUrl: string;
  token: string;
  pipelineId: string;
  bytes: number;
}

export interface ImportTimings {
  id: string;
  state: string;
  /** From the upload's first byte sent to its answer, to the check heard done, to the import heard ended. */
  uploadedMs: number;
  checkedMs: number;
  totalMs: number;
  /** This process's CPU over the import, in seconds. */
  cpuSeconds: number;
}

const RETRY_BUSY_MS = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run now, again while the pipeline answers 409 (an import of it still ending); answers the import's id. */
async function runNow(job: ImportJob, deadline: number): Promise<string> {
  for (;;) {
    const id = await tryRunNow(job.baseUrl, job.token, job.pipelineId, deadline);
    if (id) return id;
    await sleep(RETRY_BUSY_MS);
  }
}

/**
 * Gets ready to import: the file made and the live channel of the pipeline's imports open; then
 * uploads the file, waits for its check and for the import it then runs, as heard on that channel.
 */
export async function prepareImport(job: ImportJob): Promise<() => Promise<ImportTimings>> {
  const file = dealersCsv({ bytes: job.bytes });
  const { body, contentType } = uploadBody(job.pipelineId, file, 'dealers.csv');
  const imports = await followPipelineImports(job.baseUrl, job.token, job.pipelineId);
  return async () => {
    const deadline = Date.now() + 10 * 60_000;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    try {
      const ids = await call<string[]>(job.baseUrl, 'POST', '/uploads', { token: job.token, body, contentType });
      const uploadedMs = performance.now() - t0;
      const uploads = await followLive(job.baseUrl, job.token, 'uploads', { _id: ids });
      const checked = () => ids.every((id) => ['valid', 'invalid'].includes(uploads.states.get(id) ?? ''));
      const heard = await uploads.until(checked, deadline);
      uploads.close();
      if (!heard) throw new Error('the upload was not checked in time');
      if (ids.some((id) => uploads.states.get(id) !== 'valid')) throw new Error('an upload was found invalid');
      const checkedMs = performance.now() - t0;
      const id = await runNow(job, deadline);
      const state = await imports.ended(id, deadline);
      const used = process.cpuUsage(cpu0);
      return { id, state, uploadedMs, checkedMs, totalMs: performance.now() - t0, cpuSeconds: (used.user + used.system) / 1e6 };
    } finally {
      imports.close();
    }
  };
}

answerJob(prepareImport);
