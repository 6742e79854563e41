// The words of the component editor; the quoted messages of docs/product.md §18.8 to the letter.
export const COMPONENT_TEXTS = {
  saved: 'Component saved',
  build: 'Build the component',
  schematic: 'View component schematic',
  test: 'Test component',
  save: 'Save',
  wouldBeLost: 'Current component would be lost, are you sure?',
  choose: 'Choose a component on the left, or create a new one.',
  opened: 'Opened components',
  showInside: 'Show inside',
  hideInside: 'Hide inside',
  usages: 'Usages',
  hierarchy: 'Dependencies',
  noUsages: 'Not used by any component or pipeline',
  close: 'Close',
} as const;

/** The stored data model the form 'Build the component' is drawn from. */
export const COMPONENT_FORM_SCHEMA = 'rt-component';
