import type { FolderKind, TreeNode } from '@gdb/shared/folders/folders.schemas';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { KIND_PATHS } from '../../ground/calls/folders.ts';
import { askConfirmation, useDialogCalls } from '../dialog/calls.ts';
import { NameDialog } from '../dialog/NameDialog.tsx';
import { tagListQuery } from '../tags/api.ts';
import { DocumentBadgesDialog } from '../tags/DocumentBadgesDialog.tsx';
import { VersionSelectorDialog } from '../versions/VersionSelectorDialog.tsx';
import {
  deleteQuestion,
  type ExplorerUser,
  folderAt,
  KIND_LABELS,
  losesRead,
  losesReadQuestion,
  type MenuAction,
  moveTarget,
} from './explorer-rules.ts';
import type { TreeIndex } from './tree-model.ts';
import type { ExplorerCalls } from './useExplorerCalls.ts';

type Open =
  | { type: 'newFolder' | 'renameFolder' | 'newDocument' | 'chooseVersion' | 'manageBadges'; node: TreeNode }
  | { type: 'none' };

interface DialogsInput {
  kind: FolderKind;
  /** Who changes badges: warned before they take away their own read access. */
  user: ExplorerUser;
  index: TreeIndex;
  calls: ExplorerCalls;
  onOpen: (id: string, node: TreeNode) => void;
  onCreateDocument: ((name: string, folderId: string) => Promise<void>) | undefined;
  /** A dialog or question of the menu has closed (to give the focus back). */
  onClosed: () => void;
}

export interface ExplorerDialogs {
  run: (action: MenuAction, node: TreeNode) => void;
  element: ReactNode;
}

/** The name dialog an open entry asks for (new folder, rename folder, new document), or null. */
function nameDialogOf(
  open: Open,
  { kind, index, calls, onCreateDocument, close }: Omit<DialogsInput, 'user' | 'onOpen' | 'onClosed'> & { close: () => void },
) {
  if (open.type === 'newFolder')
    return {
      title: 'New folder',
      confirmText: 'Create',
      initial: '',
      confirm: async (name: string) => {
        await calls.createFolder(name, open.node.value);
        close();
      },
    };
  if (open.type === 'renameFolder')
    return {
      title: 'Rename folder',
      confirmText: 'Rename',
      initial: open.node.label,
      confirm: async (name: string) => {
        await calls.renameFolder(open.node.value, name);
        close();
      },
    };
  if (open.type === 'newDocument' && onCreateDocument) {
    const folder = folderAt(index, open.node);
    return {
      title: `New ${KIND_LABELS[kind]}`,
      confirmText: 'Create',
      initial: '',
      confirm: async (name: string) => {
        if (!folder) return;
        try {
          await onCreateDocument(name, folder.value);
        } finally {
          await calls.changed();
        }
        close();
      },
    };
  }
  return null;
}

/** What each node menu entry does: its dialog, its confirmation, or its move. */
export function useExplorerDialogs(input: DialogsInput): ExplorerDialogs {
  const { kind, user, index, calls, onOpen, onCreateDocument, onClosed } = input;
  const modal = useDialogCalls();
  const [open, setOpen] = useState<Open>({ type: 'none' });
  const close = () => {
    setOpen({ type: 'none' });
    onClosed();
  };
  const tags = useQuery({ ...tagListQuery(), enabled: open.type === 'manageBadges' });

  const run = (action: MenuAction, node: TreeNode) => {
    switch (action) {
      case 'deleteFolder':
      case 'deleteDocument':
        void (async () => {
          const yes = await askConfirmation(modal, deleteQuestion(kind, node));
          onClosed();
          if (!yes) return;
          const call = action === 'deleteFolder' ? calls.deleteFolder(node.value) : calls.deleteDocument(node.value);
          await call.catch(() => {});
        })();
        return;
      case 'moveUp':
      case 'moveDown': {
        const to = moveTarget(index, node, action === 'moveUp' ? 'up' : 'down');
        if (to) void calls.move(node, to.value).catch(() => {});
        return;
      }
      default:
        setOpen({ type: action, node });
    }
  };

  const nameDialog = nameDialogOf(open, { kind, index, calls, onCreateDocument, close });

  const node = open.type === 'none' ? null : open.node;
  const element = (
    <>
      <NameDialog
        open={nameDialog !== null}
        title={nameDialog?.title ?? ''}
        confirmText={nameDialog?.confirmText ?? 'Create'}
        initial={nameDialog?.initial ?? ''}
        onConfirm={nameDialog?.confirm ?? (async () => {})}
        onCancel={close}
      />
      {node && open.type === 'chooseVersion' ? (
        <VersionSelectorDialog
          open
          path={KIND_PATHS[kind]}
          currentId={node.value}
          onSelect={(id) => onOpen(id, node)}
          onClose={close}
        />
      ) : null}
      {node && open.type === 'manageBadges' ? (
        <DocumentBadgesDialog
          open={tags.isSuccess}
          title={node.label}
          tags={tags.data ?? []}
          value={{ read: node.tags.read, write: node.tags.write, metadataTags: node.metadataTags }}
          withMetadata={kind === 'component'}
          onSave={async (badges) => {
            const tags = { read: badges.read, write: badges.write };
            if (losesRead(user, index, node, tags) && !(await askConfirmation(modal, losesReadQuestion(node.label)))) {
              // Not saved: the dialog stays open to change the badges.
              throw new Error('kept');
            }
            await calls.saveBadges(node, badges);
          }}
          onClose={close}
        />
      ) : null}
    </>
  );
  return { run, element };
}
