import {
  documentMoveAnswerSchema,
  type FolderKind,
  folderDeleteAnswerSchema,
  folderSchema,
  type TreeNode,
} from '@gdb/shared/folders/folders.schemas';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../request/api.ts';
import { CALL_FAILURES } from '../request/call-failures.ts';
import { request } from '../request/request.ts';

/** The paths of each kind's document calls (delete, reparent). */
export const KIND_PATHS: Readonly<Record<FolderKind, '/schemas' | '/components' | '/pipelines' | '/sdk'>> = {
  schema: '/schemas',
  component: '/components',
  pipeline: '/pipelines',
  sdk: '/sdk',
};

// A node's children are described one level deep by the shared schema: the web checks the whole tree.
const nodeSchema: z.ZodType<TreeNode> = z.lazy(() =>
  z.object({
    value: z.string(),
    label: z.string(),
    type: z.enum(['folder', 'leaf']),
    children: z.array(nodeSchema),
    versions: z.array(z.object({ _id: z.string(), version: z.number(), vLocked: z.boolean() })),
    tags: z.object({ read: z.array(z.array(z.string())), write: z.array(z.array(z.string())) }),
    metadataTags: z.array(z.string()),
    write_access: z.boolean().optional(),
  }),
);
const treeSchema = z.array(nodeSchema);

export const folderKeys = {
  all: ['folders'] as const,
  tree: (kind: FolderKind) => ['folders', 'tree', kind] as const,
};

/** Other tabs of this browser hear of each change here, and drop their copy of the tree. */
const CHANNEL_NAME = 'gdb-folder-trees';

/** GET /folders/tree?kind=: the kind's root with the folders and documents the caller may read. */
export function folderTreeQuery(kind: FolderKind) {
  return queryOptions({
    queryKey: folderKeys.tree(kind),
    queryFn: ({ signal }) => api.get('/folders/tree', treeSchema, { query: { kind }, signal, nothing: CALL_FAILURES.folderTree }),
    // Kept for the page; a change made here or in another tab clears it, a return to the tab reads it again.
    staleTime: 10_000,
    refetchOnWindowFocus: true,
  });
}

// One channel object per tab: a message reaches every other tab's object, never the sender's own.
let shared: BroadcastChannel | null | undefined;
const listeners = new Set<(kind: FolderKind | undefined) => void>();

function channel(): BroadcastChannel | null {
  if (shared === undefined) {
    shared = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL_NAME) : null;
    if (shared) {
      shared.onmessage = (event: MessageEvent<{ kind?: FolderKind }>) => {
        for (const listener of listeners) listener(event.data?.kind);
      };
    }
  }
  return shared;
}

/** Clears the kind's tree in this tab and in every other open tab of this browser. */
export function folderTreeChanged(queryClient: QueryClient, kind: FolderKind): Promise<void> {
  channel()?.postMessage({ kind });
  return queryClient.invalidateQueries({ queryKey: folderKeys.tree(kind) });
}

/** Listens for the changes other tabs make; answers the function that stops listening. */
export function listenFolderTreeChanges(queryClient: QueryClient): () => void {
  channel();
  const listener = (kind: FolderKind | undefined) =>
    void queryClient.invalidateQueries({ queryKey: kind ? folderKeys.tree(kind) : folderKeys.all });
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** POST /folders: a folder named `name` (numbered when taken) in `parent`, the root when absent. */
export function createFolder(body: { name: string; kind: FolderKind; parent?: string | null }) {
  return api.post('/folders', body, folderSchema, { nothing: CALL_FAILURES.createFolder });
}

/** POST /folders/rename. */
export function renameFolder(id: string, name: string) {
  return api.post('/folders/rename', { id, name }, folderSchema);
}

/** POST /folders/reparent: moves a folder into `parentId`. */
export function reparentFolder(id: string, parentId: string) {
  return api.post('/folders/reparent', { id, parentId }, folderSchema);
}

/** POST /{kind}/reparent: moves a document (every version of it) into `parentId`. */
export function reparentDocument(kind: FolderKind, id: string, parentId: string) {
  return api.post(`${KIND_PATHS[kind]}/reparent`, { id, parentId }, documentMoveAnswerSchema);
}

/** DELETE /folders {id, kind, withFolders, withDocuments}. */
export async function deleteFolder(body: { id: string; kind: FolderKind; withFolders: boolean; withDocuments: boolean }) {
  const data = await request({ method: 'DELETE', path: '/folders', body });
  return folderDeleteAnswerSchema.parse(data);
}

/** DELETE /{kind}?id=: deletes the version `id` of a document. */
export function deleteDocument(kind: FolderKind, id: string) {
  return api.delete(KIND_PATHS[kind], z.object({ _id: z.string() }), { query: { id } });
}

/** What POST /tags/update-document-tags takes: read and write as groups of badge ids. */
export interface DocumentTagsUpdate {
  id: string;
  tags: { read: string[][]; write: string[][] };
  metadataTags: string[];
  type: 'folder' | FolderKind;
}

/** POST /tags/update-document-tags: the badges of a folder or document. */
export function updateDocumentTags(body: DocumentTagsUpdate) {
  return api.post('/tags/update-document-tags', body, z.unknown());
}
