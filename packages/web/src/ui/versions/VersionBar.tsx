import { BranchesOutlined, DeleteOutlined, LockOutlined, PlusOutlined, SyncOutlined, UnlockOutlined } from '@ant-design/icons';
import { VERSION_MESSAGES, type VersionKind, versionLabel } from '@gdb/shared/versions/versions.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Space, Typography } from 'antd';
import { useState } from 'react';
import { type VersionPath, versionCalls, versionKeys } from '../../ground/calls/versions.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation } from '../tags/confirmation.ts';
import { useFocusReturn } from '../useFocusReturn.ts';
import { UpdatePreviewDialog } from './UpdatePreviewDialog.tsx';
import { VersionSelectorDialog } from './VersionSelectorDialog.tsx';
import { VERSION_TEXTS } from './version-texts.ts';
import type { VersionedDoc } from './versioned-doc.ts';
import './versions.css';

export interface VersionBarProps {
  kind: VersionKind;
  /** The kind's call path: the version calls are below it. */
  path: VersionPath;
  /** The version shown; null when it could not be found. */
  doc: VersionedDoc | null;
  /** The editor holds modifications not saved yet. */
  dirty?: boolean;
  /** Opens another version (a new one, the chosen one, the one left after a delete); null: none is left. */
  onOpen: (id: string | null) => void;
  /** The shown version changed in place (it was locked): read it again. */
  onChanged?: () => void;
}

/** The lock question, with the choice to lock the drafts it depends on too; resolves null for No. */
function lockQuestion(ask: (content: React.ReactNode) => Promise<boolean>, doc: VersionedDoc, dirty: boolean) {
  const choice = { force: false };
  const content = (
    <Space orientation="vertical">
      <span>{dirty ? VERSION_TEXTS.unsavedBeforeLock : VERSION_TEXTS.confirmLock(doc.version)}</span>
      <Checkbox onChange={(e) => (choice.force = e.target.checked)}>{VERSION_TEXTS.force}</Checkbox>
    </Space>
  );
  return ask(content).then((yes) => (yes ? choice : null));
}

/**
 * The version button bar of the four editors (docs/product.md §18.1): the label '(v.{n} - Prod)' or
 * '(v.{n} - Draft)', Lock, New version (Unlock on a locked one), Delete, Versions and Update, each
 * confirmed first.
 */
export function VersionBar({ kind, path, doc, dirty = false, onOpen, onChanged }: VersionBarProps) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<'select' | 'update' | null>(null);
  const focus = useFocusReturn();
  if (!doc) return <Typography.Text type="danger">{VERSION_MESSAGES.notFound}</Typography.Text>;

  const calls = versionCalls(path);
  const ask = (content: React.ReactNode) => askConfirmation(modal, content);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      await queryClient.invalidateQueries({ queryKey: versionKeys.all(path) });
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setBusy(false);
    }
  };

  const lock = async () => {
    const choice = await lockQuestion(ask, doc, dirty);
    if (!choice) return;
    await run(async () => {
      await calls.lock(doc._id, choice.force);
      void message.success(VERSION_TEXTS.locked(doc.version));
      onChanged?.();
    });
  };
  const create = async () => {
    const question = doc.vLocked ? VERSION_TEXTS.confirmUnlock(doc.version) : VERSION_TEXTS.confirmNew(doc.version);
    if (!(await ask(question))) return;
    await run(async () => {
      const made = await calls.create(doc._id);
      void message.success(VERSION_TEXTS.created(made.version));
      onOpen(made._id);
    });
  };
  const remove = async () => {
    if (!(await ask(VERSION_TEXTS.confirmDelete(doc.version)))) return;
    await run(async () => {
      const answer = await calls.remove(doc._id);
      void message.success(VERSION_TEXTS.deleted(answer.version));
      onOpen(answer.next);
    });
  };
  const choose = async (id: string, version: number) => {
    if (id !== doc._id && (await ask(VERSION_TEXTS.confirmOpen(version, dirty)))) onOpen(id);
  };
  const show = (which: 'select' | 'update') => {
    focus.opened();
    setDialog(which);
  };

  const writable = !doc.read_only && !busy;
  return (
    <Space wrap className="gdb-version-bar" role="toolbar" aria-label="Version">
      <Typography.Text strong>
        {doc.name} {versionLabel(doc)}
      </Typography.Text>
      {!doc.vLocked && (
        <Button icon={<LockOutlined />} disabled={!writable} onClick={() => void lock()}>
          Lock
        </Button>
      )}
      <Button icon={doc.vLocked ? <UnlockOutlined /> : <PlusOutlined />} disabled={!writable} onClick={() => void create()}>
        {doc.vLocked ? 'Unlock' : 'New version'}
      </Button>
      {!doc.vLocked && (
        <Button icon={<DeleteOutlined />} danger disabled={!writable} onClick={() => void remove()}>
          Delete
        </Button>
      )}
      <Button icon={<BranchesOutlined />} disabled={busy} onClick={() => show('select')}>
        Versions
      </Button>
      <Button icon={<SyncOutlined />} disabled={!writable} onClick={() => show('update')}>
        Update
      </Button>
      <VersionSelectorDialog
        open={dialog === 'select'}
        path={path}
        currentId={doc._id}
        onSelect={(id, version) => void choose(id, version)}
        onClose={() => setDialog(null)}
        afterClose={focus.closed}
      />
      <UpdatePreviewDialog
        open={dialog === 'update'}
        kind={kind}
        path={path}
        doc={doc}
        onUpdated={onOpen}
        onClose={() => setDialog(null)}
        afterClose={focus.closed}
      />
    </Space>
  );
}
