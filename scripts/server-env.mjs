/**
 * The environment a server or worker process starts with: the caller's, plus the allocator
 * setting below unless the caller sets it. glibc's allocator serves a large block from its heaps
 * once a block of that size was freed, and keeps what is freed there: after a 20 MiB import the
 * server held 115–180 MiB more than before. Blocks of 1 MiB and more taken straight from the
 * system (and given back when freed) left it 50–60 MiB over, at the same speed
 * (docs/operations.md). Used by `npm start`, `npm run worker`, the browser tests and the load bench.
 */
export function serverEnv(env) {
  return { MALLOC_MMAP_THRESHOLD_: '1048576', ...env };
}
