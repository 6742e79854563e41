/** The documents a picker chooses, each opened by its editor's screen. */
export type PickedKind = 'schema' | 'component' | 'sdk' | 'pipeline';

const EDITORS: Readonly<Record<PickedKind, string>> = {
  schema: '/manage/schemas',
  component: '/manage/components',
  sdk: '/manage/sdk',
  pipeline: '/manage/pipeline',
};

/** Where a document's editor opens it (the data-model editor, ComponentEditor, the SDK editor, ManagePipeline: query id). */
const editorAddress = (kind: PickedKind, id: string) => `${EDITORS[kind]}?id=${encodeURIComponent(id)}`;

/** Opens the document in its editor, in a new tab. */
export const openInNewTab = (kind: PickedKind, id: string) => window.open(editorAddress(kind, id), '_blank', 'noopener');
