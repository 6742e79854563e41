import { unavailable } from '../../platform/http/errors.ts';

/** Seconds a client is asked to wait when the uploads in flight fill the budget. */
export const UPLOAD_RETRY_SECONDS = 10;

/**
 * The bytes of upload requests the server holds at once, all requests together: an upload is read
 * whole into memory before it is stored, so without a bound parallel requests could take the
 * server's memory. A request reserves its declared length (or the route's limit when it declares
 * none) before its body is read, and gives it back when it is answered.
 */
export function uploadBudget(maxBytes: number) {
  let inFlight = 0;
  return {
    /** Reserves `bytes`; refuses (503 with Retry-After) when they would pass the budget. */
    reserve(bytes: number): () => void {
      if (inFlight > 0 && inFlight + bytes > maxBytes) {
        throw unavailable(
          'The server is receiving too many files at once. Please try again in a few seconds.',
          UPLOAD_RETRY_SECONDS,
        );
      }
      inFlight += bytes;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight -= bytes;
      };
    },
    inFlight: () => inFlight,
  };
}

export type UploadBudget = ReturnType<typeof uploadBudget>;
