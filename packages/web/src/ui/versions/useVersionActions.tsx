import { useQueryClient } from '@tanstack/react-query';
import { App, Checkbox, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { type VersionPath, versionCalls, versionKeys } from '../../ground/calls/versions.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useDialogCalls } from '../dialog/calls.ts';
import { VERSION_TEXTS } from './version-texts.ts';
import type { VersionedDoc } from './versioned-doc.ts';

export interface VersionActionsOptions {
  path: VersionPath;
  doc: VersionedDoc;
  dirty: boolean;
  onOpen: (id: string | null) => void;
  onChanged: (() => void) | undefined;
}

/**
 * The lock question, with the choice to lock the drafts it depends on too and, for a master
 * pipeline, its country pipelines; resolves null for No.
 */
function lockQuestion(ask: (content: ReactNode) => Promise<boolean>, doc: VersionedDoc, dirty: boolean, master: boolean) {
  const choice = { force: false, country: false };
  const content = (
    <Space orientation="vertical">
      <span>{dirty ? VERSION_TEXTS.unsavedBeforeLock : VERSION_TEXTS.confirmLock(doc.version)}</span>
      <Checkbox onChange={(e) => (choice.force = e.target.checked)}>{VERSION_TEXTS.force}</Checkbox>
      {master && <Checkbox onChange={(e) => (choice.country = e.target.checked)}>{VERSION_TEXTS.country}</Checkbox>}
    </Space>
  );
  return ask(content).then((yes) => (yes ? choice : null));
}

/** Lock, new version (Unlock), delete and open another version, each asked first, with their toasts (docs/product.md §18.1). */
export function useVersionActions({ path, doc, dirty, onOpen, onChanged }: VersionActionsOptions) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const calls = versionCalls(path);
  const ask = (content: ReactNode) => askConfirmation(modal, content);
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
    const choice = await lockQuestion(ask, doc, dirty, path === '/pipelines' && doc.isMaster === true);
    if (!choice) return;
    await run(async () => {
      await calls.lock(doc._id, choice.force, choice.country);
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
  return { busy, lock, create, remove, choose };
}
