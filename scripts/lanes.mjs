// Runs jobs side by side, a few at a time: the test and check commands share it.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** How long since `since`, in whole seconds, as text. */
export const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/** Runs one job's commands one after the other (in `cwd`, the project's root by default); answers its exit code and output. */
function runJob({ name, steps, cwd = root }, streamed) {
  const started = Date.now();
  const output = [];
  const next = async (i) => {
    if (i === steps.length) return 0;
    const [cmd, args] = steps[i];
    const child = spawn(cmd, args, { cwd, stdio: streamed ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    return code === 0 ? next(i + 1) : (code ?? 1);
  };
  return next(0).then((code) => ({ name, code, output, took: seconds(started) }));
}

/**
 * Runs jobs `slots` at a time, the next one starting as soon as one ends; the first job's output
 * shows as it comes and the others' once they end (their lines would otherwise interleave), each
 * with its time. Exits with the first failure's code once all have ended.
 */
export async function together(jobs, slots = 2) {
  const results = [];
  let taken = 0;
  const lane = async () => {
    while (taken < jobs.length) {
      const i = taken++;
      results[i] = await runJob(jobs[i], i === 0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots, jobs.length) }, lane));
  for (const r of results) {
    if (r.output.length > 0) process.stdout.write(Buffer.concat(r.output));
    console.log(`--- ${r.name}: ${r.code === 0 ? 'passed' : 'FAILED'} in ${r.took}`);
  }
  const failed = results.find((r) => r.code !== 0);
  if (failed) process.exit(failed.code ?? 1);
}
