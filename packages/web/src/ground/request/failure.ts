import { ApiError } from './request.ts';

/** Whether the request layer has shown this failure itself (the 'Confirm logout' dialog, a network message). */
export function wasShown(error: unknown): boolean {
  return error instanceof ApiError && error.shown;
}

/** The words of a failure: its message, else `fallback`, else its text form. */
export function errorText(error: unknown, fallback?: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback ?? String(error);
}

/** Shows a failure's words with `show`, unless the request layer has shown it already. */
export function showFailure(error: unknown, show: (text: string) => unknown, fallback?: string): void {
  if (!wasShown(error)) void show(errorText(error, fallback));
}
