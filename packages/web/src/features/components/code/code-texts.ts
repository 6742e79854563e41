// The words of the code and SDK dialogs (docs/product.md §16.5 and §18.8, to the letter).
export const CODE_TEXTS = {
  quit: 'Quit ?',
  save: 'Save',
  ok: 'Ok',
  cancel: 'Cancel',
  close: 'Close',
  hideSchemas: 'Hide schemas',
  showSchemas: 'Show schemas',
  inputs: 'Input ports',
  outputs: 'Output ports',
  editCode: 'Edit code',
  sdk: 'SDK functions',
  loading: 'Loading...',
  yes: 'Yes',
  no: 'No',
} as const;

/** The title of a link's code dialog. */
export const linkTitle = (name: string, fromPort: string, toPort: string) => `Link ${name} from ${fromPort} to ${toPort}`;
