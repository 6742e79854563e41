/** What a reference shows when the caller may not read what it names: never its raw id. */
export const NO_ACCESS = '(no access)';

/** What a reference shows while the list that names it is still being read. */
const LOADING_NAME = 'Loading…';

/** An option for a chosen id the list does not hold: said to be out of reach, or still loading. */
export const unlistedOption = (value: string, loading: boolean) => ({
  value,
  label: loading ? LOADING_NAME : NO_ACCESS,
  disabled: true,
});
