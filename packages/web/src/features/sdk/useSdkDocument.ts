import { type SdkFunction, sdkSaveBodySchema } from '@gdb/shared/sdk/sdk.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { findSdk, saveSdk, sdkKeys } from '../../ground/calls/sdk.ts';
import { useFormDocument } from '../../ui/versions/useFormDocument.ts';
import { SDK_TEXTS } from './sdk-texts.ts';

/** An SDK function version as the editor's shared pieces read it: named by its function name. */
export type SdkDoc = SdkFunction & { name: string };

const named = (fn: SdkFunction): SdkDoc => ({ ...fn, name: fn.functionName });

/**
 * The SDK function the editor shows (route `?id`, rewritten when one opens), the breadcrumb of
 * the functions opened, and open, create and save with their questions and messages.
 */
export function useSdkDocument() {
  const queryClient = useQueryClient();
  return useFormDocument({
    kind: 'sdk',
    keys: sdkKeys,
    find: async (id, signal) => named(await findSdk(id, signal)),
    create: (name, folderId) => saveSdk({ functionName: name, folder: folderId }),
    texts: SDK_TEXTS,
    saveBody: sdkSaveBodySchema,
    saveCall: async (body) => named(await saveSdk(body)),
    // Its modules may have changed: the report is read again.
    afterSave: (saved) => void queryClient.invalidateQueries({ queryKey: sdkKeys.vulnerabilities(saved._id) }),
  });
}
