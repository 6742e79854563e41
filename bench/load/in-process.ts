// A script of the bench in a process of its own, as a user's browser is one: the bench hands it a
// job on its IPC channel, the script gets ready (its code loaded, its file made, its live channel
// open) and says so, then does the job when told to and answers its timings there. The fifty
// readers' answers in the bench's own process do not delay what it does, and the reads measured
// beside it do not share the machine with its start.
import { fork } from 'node:child_process';

/** A script started and ready: `go` has it do its job and answers its timings. */
export interface Ready<Answer> {
  go(): Promise<Answer>;
}

type FromChild<Answer> = { ready?: true; timings?: Answer; error?: string };

/** Starts `script` (next to this file) in a process of its own with `job`; answers once it is ready. */
export function startInProcess<Job, Answer>(script: string, job: Job): Promise<Ready<Answer>> {
  const child = fork(new URL(script, import.meta.url), [], { execArgv: ['--no-node-snapshot', '--import', 'tsx'] });
  let answered: (m: FromChild<Answer>) => void = () => undefined;
  const answer = new Promise<Answer>((resolve, reject) => {
    answered = (m) => (m.timings ? resolve(m.timings) : reject(new Error(`${script} failed: ${m.error}`)));
    child.once('exit', (code) => reject(new Error(`${script} ended (${code}) before it answered`)));
  });
  answer.catch(() => undefined);
  const ready = new Promise<Ready<Answer>>((resolve, reject) => {
    child.on('message', (m: FromChild<Answer>) => {
      if (m.ready) {
        resolve({
          go: () => {
            child.send('go');
            return answer;
          },
        });
      } else answered(m);
    });
    answer.catch(reject);
  });
  child.send(job as object);
  return ready;
}

/**
 * In a process started by `startInProcess`: gets ready for the job it is given (`prepare`), says
 * so, does it when told to, answers its timings or its error, and ends.
 */
export function answerJob<Job, Answer>(prepare: (job: Job) => Promise<() => Promise<Answer>>): void {
  if (!process.send) return;
  const fail = (error: unknown) =>
    process.send?.({ error: error instanceof Error ? error.message : String(error) }, () => process.exit(1));
  process.once('message', (job: Job) => {
    prepare(job).then((work) => {
      process.once('message', () => work().then((timings) => process.send?.({ timings }, () => process.exit(0)), fail));
      process.send?.({ ready: true });
    }, fail);
  });
}
