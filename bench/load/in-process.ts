// A script of the bench in a process of its own, as a user's browser is one: the bench hands it a
// job on its IPC channel and it answers its timings there, so the fifty readers' answers in the
// bench's own process do not delay what it does.
import { fork } from 'node:child_process';

/** Runs `script` (next to this file) in a process of its own with `job`; answers its timings. */
export function inProcess<Job, Answer>(script: string, job: Job): Promise<Answer> {
  const child = fork(new URL(script, import.meta.url), [], { execArgv: ['--no-node-snapshot', '--import', 'tsx'] });
  child.send(job as object);
  return new Promise((resolve, reject) => {
    child.once('message', (m: { timings?: Answer; error?: string }) =>
      m.timings ? resolve(m.timings) : reject(new Error(`${script} failed: ${m.error}`)),
    );
    child.once('exit', (code) => reject(new Error(`${script} ended (${code}) before it answered`)));
  });
}

/** In a process started by `inProcess`: does the job it is given, answers its timings or its error, and ends. */
export function answerJob<Job, Answer>(work: (job: Job) => Promise<Answer>): void {
  if (!process.send) return;
  process.once('message', (job: Job) => {
    work(job).then(
      (timings) => process.send?.({ timings }, () => process.exit(0)),
      (error: unknown) =>
        process.send?.({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
    );
  });
}
