/** Tag selector constants (docs/product.md §7.3). */
export const TAG_SELECTOR = {
  noTags: 'No tags',
  selectAll: 'Select all',
  boxHeight: 290,
  userScreenMaxHeight: 220,
  badgeDialogMaxHeight: 120,
  globalListTitle: 'Manage global badge list',
  saveChanges: 'Do you want to save the current modifications?',
} as const;

/** The badges a selector offers: hidden ones left out, sorted by name ignoring case. */
export function selectableTags<T extends { name: string; isHidden: boolean }>(tags: readonly T[]): T[] {
  return tags
    .filter((t) => !t.isHidden)
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.name.localeCompare(b.name));
}
