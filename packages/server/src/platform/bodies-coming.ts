/**
 * Large request bodies this process is receiving now. The process reads a socket once a turn of
 * its event loop, and the kernel keeps only a couple of hundred KiB of a sender's bytes between
 * two reads: while such a body comes, work that shares the loop in slices (the embedded
 * database's statements) cuts them short, so that the loop turns, and reads the body, more often.
 */
let coming = 0;

/** Notes a large body coming until the answer is called (once; again does nothing). */
export function bodyComing(): () => void {
  coming++;
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    coming--;
  };
}

/** Whether a large body is coming now. */
export function bodiesComing(): boolean {
  return coming > 0;
}
