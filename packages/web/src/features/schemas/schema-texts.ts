// The words of the schema editor; the quoted messages of docs/product.md §18.2 to the letter.
export const SCHEMA_TEXTS = {
  saved: 'Schema saved',
  confirmSave: (name: string) => `Do you want to save schema ${name} ?`,
  wouldBeLost: 'Current schema would be lost, are you sure?',
  copyFailed: 'Unable copy json schema to clipboard, please press Ctrl/Cmd+C to copy.',
  copied: 'JSON schema copied to clipboard',
  generateError: 'Generate schema from file error: ',
  newTitle: 'New schema',
  renameTitle: 'Rename',
  notAnObject: 'The JSON must be a JSON schema object',
  choose: 'Choose a data model on the left, or create a new one.',
} as const;

/** Messages shown for 4 seconds. */
export const LONG_TOAST_SECONDS = 4;

/** A generate failure in the product's words ('Generate schema from file error: …'). */
export const generateErrorText = (text: string): string =>
  text.startsWith(SCHEMA_TEXTS.generateError) ? text : `${SCHEMA_TEXTS.generateError}${text}`;
