import { componentSaveBodySchema } from '@gdb/shared/components/components.schemas';
import { componentKeys, findComponent, saveComponent } from '../../ground/calls/components.ts';
import { useFormDocument } from '../../ui/versions/useFormDocument.ts';
import { COMPONENT_TEXTS } from './component-texts.ts';

/**
 * The component the editor shows (route `?id`, rewritten when one opens), the breadcrumb of the
 * components opened, and open, create and save with their questions and messages.
 */
export function useComponentDocument() {
  return useFormDocument({
    kind: 'component',
    keys: componentKeys,
    find: findComponent,
    create: (name, folderId) => saveComponent({ name, folder: folderId }),
    texts: COMPONENT_TEXTS,
    saveBody: componentSaveBodySchema,
    saveCall: saveComponent,
  });
}
