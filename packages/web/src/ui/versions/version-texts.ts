import type { VersionKind } from '@gdb/shared/versions/versions.schemas';

/** The words of the version bar and its dialogs; the quoted ones of docs/product.md §18.1 to the letter. */
export const VERSION_TEXTS = {
  locked: (n: number) => `Version ${n} locked`,
  created: (n: number) => `Version ${n} created`,
  deleted: (n: number) => `Version ${n} deleted`,
  updated: (name: string, from: number, to: number) => `${name} : Version ${from} updated to version ${to}`,
  selectTitle: 'Select a version',
  proceed: 'Proceed to update ...',
  unsavedBeforeLock: 'Some modifications are not saved before lock, do you want to continue ?',
  confirmLock: (n: number) => `Lock version ${n} ?`,
  force: 'Also lock the drafts it depends on',
  country: 'Also lock its country pipelines',
  confirmNew: (n: number) => `Create a new version from version ${n} ?`,
  unlockHint: 'Makes a new draft version from this locked one, which stays locked.',
  confirmUnlock: (n: number) => `Unlock version ${n} ? A new draft version is created from it.`,
  confirmDelete: (n: number) => `Delete version ${n} ?`,
  confirmOpen: (n: number, dirty: boolean) =>
    dirty ? `Open version ${n} ? The modifications not saved would be lost.` : `Open version ${n} ?`,
  upToDate: 'Every dependency is on its newest version.',
  updateJobs: 'Move the jobs to the new version',
  updateCountries: 'Update the country pipelines too',
  bulkError: (e: { name: string; version: number | null }, error: string) => `${e.name}, version ${e.version ?? ''} : ${error}`,
} as const;

const KIND_WORDS: Record<VersionKind, string> = {
  schema: 'Schema',
  component: 'Component',
  sdk: 'Sdk',
  pipeline: 'Pipeline',
};

/** The document type, capitalised, as dialog titles show it. */
export const kindWord = (kind: VersionKind) => KIND_WORDS[kind];

/** Bulk results are shown one at a time, this many ms apart (docs/product.md §18.10). */
const BULK_TOAST_GAP_MS = 100;

function showInTurn(toasts: readonly (() => unknown)[]): void {
  toasts.forEach((toast, i) => {
    if (i === 0) toast();
    else setTimeout(toast, i * BULK_TOAST_GAP_MS);
  });
}

/** Shows `texts` one after another, 100 ms apart. */
export function showApart(texts: readonly string[], show: (text: string) => unknown): void {
  showInTurn(texts.map((text) => () => show(text)));
}

/** A bulk call's answer: the successes, then the errors, one toast each in one sequence 100 ms apart. */
export function showResults(
  successes: readonly string[],
  errors: readonly string[],
  ok: (text: string) => unknown,
  ko: (text: string) => unknown,
): void {
  showInTurn([...successes.map((text) => () => ok(text)), ...errors.map((text) => () => ko(text))]);
}
