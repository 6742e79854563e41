// The words of the SDK editor; the quoted messages of docs/product.md §17 to the letter.
export const SDK_TEXTS = {
  saved: (id: string) => `sdk saved, id : ${id}`,
  build: 'Build the sdk',
  save: 'Save',
  recheck: 'Recheck for vulnerabilities',
  usages: 'Usages',
  wouldBeLost: 'Current sdk would be lost, are you sure?',
  choose: 'Choose an SDK function on the left, or create a new one.',
  opened: 'Opened SDK functions',
  explorer: 'SDK functions',
} as const;

/** The stored data model the form 'Build the sdk' is drawn from. */
export const SDK_FORM_SCHEMA = 'rt-sdk-schema';

/** The words of the test area; 'Execute error : {detail}' to the letter (docs/product.md §17). */
export const SDK_TEST_TEXTS = {
  section: 'Test sdk',
  arguments: 'Arguments (a JSON array)',
  run: 'Run test',
  output: 'Output',
  logs: 'Logs',
  executeError: 'Execute error : ',
  notJson: 'The arguments are not JSON:',
  notArray: 'The arguments must be a JSON array, e.g. [1, "two"].',
  runsSaved: (name: string) => `The test runs the newest saved version of ${name}.`,
} as const;

/** The words around the vulnerability report; the report's own sentences come from the server. */
export const REPORT_TEXTS = {
  title: 'Vulnerable packages',
  module: 'Module',
  version: 'Version',
  advisories: 'Advisories',
  fixedIn: (version: string) => `(fixed in ${version})`,
} as const;

/** The words of the 'Usages' dialog. */
export const USAGES_TEXTS = {
  title: 'Usages',
  name: 'Component',
  version: 'Version',
  none: 'No component uses this SDK function.',
  close: 'Close',
} as const;
