import { unavailable } from '../../platform/http/errors.ts';

/** Seconds a client is asked to wait when the uploads in flight fill the budget. */
const UPLOAD_RETRY_SECONDS = 10;

/** A request's share of the budget: the bytes it has sent so far, given back once when it ends. */
export interface BudgetShare {
  /** Counts `bytes` more; refuses (503 with Retry-After) when they would pass the budget others share. */
  take(bytes: number): void;
  release(): void;
}

/**
 * The bytes of uploads in flight on this instance, all requests together: each file goes to the
 * store as it comes, so the bound is on what parallel requests send at once (and on the checks that
 * follow them), not on what one holds. A request counts the bytes of its files as they arrive and
 * gives them back when it ends, however it ends. A request is refused before its body is read when
 * the budget is full, or would be with the length it declares; and while it is read when the bytes
 * it sends would pass the budget. One request alone may pass it.
 */
export function uploadBudget(maxBytes: number) {
  let inFlight = 0;
  const refusal = () =>
    unavailable('The server is receiving too many files at once. Please try again in a few seconds.', UPLOAD_RETRY_SECONDS);
  return {
    /** Admits a request that declares `declared` bytes (0 when it declares none), or refuses it. */
    admit(declared = 0): BudgetShare {
      if (inFlight > 0 && (inFlight >= maxBytes || inFlight + declared > maxBytes)) throw refusal();
      let held = 0;
      let released = false;
      return {
        take(bytes) {
          if (released) return;
          if (inFlight > held && inFlight + bytes > maxBytes) throw refusal();
          held += bytes;
          inFlight += bytes;
        },
        release() {
          if (released) return;
          released = true;
          inFlight -= held;
          held = 0;
        },
      };
    },
    inFlight: () => inFlight,
  };
}

export type UploadBudget = ReturnType<typeof uploadBudget>;
