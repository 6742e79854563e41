/**
 * The environment a server or worker process starts with: the caller's, plus the allocator
 * settings below unless the caller sets them (docs/operations.md, "Memory after large files"). Used
 * by `npm start`, `npm run worker`, the browser tests and the load bench.
 *
 * - glibc's allocator serves a large block from its heaps once a block of that size was freed, and
 *   keeps what is freed there: after a 20 MiB import the server held 115–180 MiB more than before.
 *   Blocks of 1 MiB and more taken straight from the system (and given back when freed) left it
 *   50–60 MiB over, at the same speed.
 * - Memory taken from the system is new: each 4 KiB page of it costs a fault when first written
 *   (about 12 µs each on a 2-core virtual machine, 60–80 ms for 20 MiB). Asked for in huge pages
 *   (2 MiB, where the kernel allows them for memory that asks), the same 20 MiB took 2–16 ms.
 */
const HUGE_PAGES = 'glibc.malloc.hugetlb=1';

/** The caller's glibc tunables with huge pages asked for, unless they already say how. */
function tunables(given) {
  if (!given) return HUGE_PAGES;
  return given.includes('glibc.malloc.hugetlb=') ? given : `${given}:${HUGE_PAGES}`;
}

export function serverEnv(env) {
  return { MALLOC_MMAP_THRESHOLD_: '1048576', ...env, GLIBC_TUNABLES: tunables(env.GLIBC_TUNABLES) };
}
