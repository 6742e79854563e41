import { PIPELINE_SAVE_MESSAGES } from '@gdb/shared/pipelines/pipeline-save.schemas';

// The words of the pipelines screen; the quoted messages of docs/product.md §8.3 and §18.6 to the letter.
export const PIPELINE_TEXTS = {
  saved: PIPELINE_SAVE_MESSAGES.saved,
  save: 'Save',
  newPipeline: 'New pipeline',
  /** 'MASTER Pipeline [name]' or 'Country Pipeline [name]'. */
  title: (p: { isMaster: boolean; name: string }) => `${p.isMaster ? 'MASTER Pipeline' : 'Country Pipeline'} [${p.name}]`,
  choose: 'Choose a pipeline on the left, or create a new one.',
  wouldBeLost: 'Current pipeline would be lost, are you sure?',
} as const;

/** The stored data model the pipeline form is drawn from. */
export const PIPELINE_FORM_SCHEMA = 'rt-pipeline';
