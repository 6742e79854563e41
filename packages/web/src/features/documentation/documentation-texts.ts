// The words of the documentation page (docs/product.md §18.9).
export const DOCUMENTATION_TEXTS = {
  functions: 'SDK functions',
  filter: 'Filter',
  none: 'No SDK function to show.',
  choose: 'Choose a function on the left to read its documentation.',
  documentation: 'Documentation',
  input: 'Input',
  output: 'Output',
  error: 'Error',
  version: 'Version',
  modules: 'Modules',
  read: 'Read',
  write: 'Write',
  open: 'Open to all',
  empty: '—',
} as const;
