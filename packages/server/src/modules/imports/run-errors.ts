/** A failure of a run step that the import's logs explain; its message is shown as it is. */
export class RunStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunStepError';
  }
}
