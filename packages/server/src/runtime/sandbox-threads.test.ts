import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * In a process of its own (isolated-vm's threads are the process's, made once): a pool made to wait
 * for the sandbox's threads runs a busy program; answers the priority (`nice`) of the thread that
 * ran it and of the main thread, and what making the threads answered.
 */
const script = `
import fs from 'node:fs';
import { IsolatePool } from './packages/server/src/runtime/isolate-pool.ts';
import { sandboxThreadsBelowNormal } from './packages/server/src/runtime/sandbox-threads.ts';
const stat = (task) => fs.readFileSync('/proc/self/task/' + task + '/stat', 'utf8').split(') ')[1].split(' ');
const cpu = () => new Map(fs.readdirSync('/proc/self/task').map((t) => [t, Number(stat(t)[11]) + Number(stat(t)[12])]));
const made = sandboxThreadsBelowNormal();
const pool = new IsolatePool({ size: 1, queueLimit: 1, threadsMade: () => made });
const lease = await pool.acquire(32);
const context = await pool.context(lease, 5000);
const before = cpu();
await context.eval('const until = Date.now() + 600; while (Date.now() < until);', { timeout: 5000 });
const after = cpu();
const [busiest] = [...after].sort((a, b) => (b[1] - (before.get(b[0]) ?? 0)) - (a[1] - (before.get(a[0]) ?? 0)));
console.log(JSON.stringify({ made: await made, ran: Number(stat(busiest[0])[16]), main: Number(stat(String(process.pid))[16]), onMain: busiest[0] === String(process.pid) }));
pool.close();
`;

describe('the sandbox threads', () => {
  it.runIf(process.platform === 'linux')('run programs below the priority of the thread answering requests', () => {
    const child = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const outcome = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}');
    expect(outcome.made).toBe('made');
    expect(outcome.onMain).toBe(false);
    // Below normal is 10; a process started at a lower priority already keeps its threads there.
    expect(outcome.ran).toBe(Math.max(10, outcome.main));
  });
});
