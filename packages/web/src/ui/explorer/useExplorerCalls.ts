import type { FolderKind, TreeNode } from '@gdb/shared/folders/folders.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import {
  createFolder,
  deleteDocument,
  deleteFolder,
  folderTreeChanged,
  renameFolder,
  reparentDocument,
  reparentFolder,
  updateDocumentTags,
} from '../../ground/calls/folders.ts';
import { showFailure } from '../../ground/request/failure.ts';
import type { DocumentBadges } from '../tags/DocumentBadgesDialog.tsx';
import { badgesSaved } from './explorer-rules.ts';

/** How a failed call is told: a toast by default; the testing view only logs it. */
export type FailureReport = (error: unknown) => void;

/**
 * The explorer's changes: each call, then the kind's tree cleared here and in the other tabs.
 * A failure is reported and thrown again, so a dialog stays open.
 */
export function useExplorerCalls(kind: FolderKind, onFailure?: FailureReport) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const report: FailureReport = onFailure ?? ((error) => showFailure(error, message.error));

  const change = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      report(error);
      throw error;
    } finally {
      await folderTreeChanged(queryClient, kind);
    }
  };

  return {
    createFolder: (name: string, parent: string | null) => change(() => createFolder({ name, kind, parent })),
    renameFolder: (id: string, name: string) => change(() => renameFolder(id, name)),
    deleteFolder: (id: string) => change(() => deleteFolder({ id, kind, withFolders: true, withDocuments: true })),
    deleteDocument: async (id: string) => {
      const deleted = await change(() => deleteDocument(kind, id));
      if (kind === 'pipeline') message.success('Pipeline deleted');
      return deleted;
    },
    /** Moves a folder or a document into the folder `parentId`. */
    move: (item: TreeNode, parentId: string) =>
      change<unknown>(() =>
        item.type === 'folder' ? reparentFolder(item.value, parentId) : reparentDocument(kind, item.value, parentId),
      ),
    saveBadges: async (node: TreeNode, badges: DocumentBadges) => {
      await change(() =>
        updateDocumentTags({
          id: node.value,
          tags: { read: badges.read, write: badges.write },
          metadataTags: badges.metadataTags,
          type: node.type === 'folder' ? 'folder' : kind,
        }),
      );
      void message.success(badgesSaved(node.label));
    },
    /** A change the host made (a document created, say). */
    changed: () => folderTreeChanged(queryClient, kind),
    report,
  };
}

export type ExplorerCalls = ReturnType<typeof useExplorerCalls>;
