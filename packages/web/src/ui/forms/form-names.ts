/** Names of the forms on the page: ids of their fields start with it, so two forms must not share one. */

export const DEFAULT_FORM_NAME = 'dynamic-form';
const DEFAULT_ID_LENGTH = 5;
const MAX_ID_LENGTH = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random id of `length` characters (5 by default, at most 10). */
export function randomId(length = DEFAULT_ID_LENGTH): string {
  const n = Math.max(1, Math.min(MAX_ID_LENGTH, Math.floor(length)));
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

const inUse = new Set<string>();

/** Takes a name for a form on the page; a name already taken is warned about and given a suffix. */
export function claimFormName(requested: string): string {
  let name = requested || DEFAULT_FORM_NAME;
  if (inUse.has(name)) {
    const renamed = `${name}_${randomId()}`;
    console.warn(`A form named ${name} is already on the page; this one is named ${renamed}`);
    name = renamed;
  }
  inUse.add(name);
  return name;
}

export function releaseFormName(name: string): void {
  inUse.delete(name);
}

/** The language of the forms: the browser's, lower-cased with an underscore (en, zh_cn). */
export function formLanguage(language = typeof navigator === 'undefined' ? 'en' : navigator.language): string {
  return (language || 'en').toLowerCase().replace(/-/g, '_');
}

/** An id for a field's element: the form name and the path, as characters ids allow. */
export const fieldId = (form: string, key: string) => `${form}-${key || 'root'}`.replace(/[^A-Za-z0-9_-]/g, '_');
