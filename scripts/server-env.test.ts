import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serverEnv } from './server-env.mjs';

/** When the kernel gives huge pages: to memory that asks for them, to any, or never (and off Linux). */
function hugePages(): 'madvise' | 'always' | 'never' {
  try {
    const mode = /\[(\w+)\]/.exec(fs.readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'))?.[1];
    return mode === 'madvise' || mode === 'always' ? mode : 'never';
  } catch {
    return 'never';
  }
}

describe('the server’s environment', () => {
  it('adds the allocator’s settings, keeping what the caller set', () => {
    expect(serverEnv({ A: '1' })).toEqual({
      A: '1',
      MALLOC_MMAP_THRESHOLD_: '1048576',
      GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1',
    });
    expect(serverEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }).MALLOC_MMAP_THRESHOLD_).toBe('65536');
    expect(serverEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }).GLIBC_TUNABLES).toBe(
      'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1',
    );
    expect(serverEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }).GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=0');
  });

  it.runIf(hugePages() !== 'never')('gives a process started with it huge pages for a large buffer', () => {
    const program = `
      const bytes = Buffer.alloc(32 * 1024 * 1024, 1);
      const rollup = require('node:fs').readFileSync('/proc/self/smaps_rollup', 'utf8');
      console.log(/AnonHugePages:\\s+(\\d+) kB/.exec(rollup)[1], bytes.length);`;
    const hugeKiB = (env: NodeJS.ProcessEnv) => {
      const run = spawnSync(process.execPath, ['-e', program], { env, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      return Number(run.stdout.split(' ')[0]);
    };
    const { GLIBC_TUNABLES: _, ...plain } = process.env;
    expect(hugeKiB(serverEnv(plain))).toBeGreaterThanOrEqual(16 * 1024);
    // Where only memory that asks gets them, the same process without the setting gets none.
    if (hugePages() === 'madvise') expect(hugeKiB({ ...plain, MALLOC_MMAP_THRESHOLD_: '1048576' })).toBeLessThan(16 * 1024);
  });
});
