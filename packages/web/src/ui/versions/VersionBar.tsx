import { BranchesOutlined, DeleteOutlined, LockOutlined, PlusOutlined, SyncOutlined, UnlockOutlined } from '@ant-design/icons';
import { VERSION_MESSAGES, type VersionKind, versionLabel } from '@gdb/shared/versions/versions.schemas';
import { Button, Space, Typography } from 'antd';
import { useId, useRef, useState } from 'react';
import type { VersionPath } from '../../ground/calls/versions.ts';
import { useFocusReturn } from '../useFocusReturn.ts';
import { UpdatePreviewDialog } from './UpdatePreviewDialog.tsx';
import { useVersionActions } from './useVersionActions.tsx';
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

/**
 * The version button bar of the four editors (docs/product.md §18.1): the label '(v.{n} - Prod)' or
 * '(v.{n} - Draft)', Lock, New version (Unlock on a locked one), Delete, Versions and Update, each
 * confirmed first.
 */
export function VersionBar({ doc, dirty = false, ...rest }: VersionBarProps) {
  if (!doc) return <Typography.Text type="danger">{VERSION_MESSAGES.notFound}</Typography.Text>;
  return <Bar doc={doc} dirty={dirty} {...rest} />;
}

function Bar({ kind, path, doc, dirty, onOpen, onChanged }: VersionBarProps & { doc: VersionedDoc; dirty: boolean }) {
  const { busy, lock, create, remove, choose } = useVersionActions({ path, doc, dirty, onOpen, onChanged });
  const [dialog, setDialog] = useState<'select' | 'update' | null>(null);
  const focus = useFocusReturn();
  const hintId = useId();
  const versionsButton = useRef<HTMLButtonElement>(null);
  const chosen = useRef(false);
  // Once the question about opening another version is answered (and its dialog gone), the
  // keyboard goes on from Versions, in the version now shown or the same one.
  const backToVersions = () => setTimeout(() => versionsButton.current?.focus());
  const show = (which: 'select' | 'update') => {
    focus.opened();
    setDialog(which);
  };

  const writable = !doc.read_only && !busy;
  return (
    <Space wrap className="gdb-version-bar" role="group" aria-label="Version">
      <Typography.Text strong>
        {doc.name} {versionLabel(doc)}
      </Typography.Text>
      {!doc.vLocked && (
        <Button icon={<LockOutlined />} disabled={!writable} onClick={() => void lock()}>
          Lock
        </Button>
      )}
      {doc.vLocked ? (
        <>
          <Button
            icon={<UnlockOutlined />}
            disabled={!writable}
            title={VERSION_TEXTS.unlockHint}
            aria-describedby={hintId}
            onClick={() => void create()}
          >
            Unlock
          </Button>
          <span id={hintId} className="gdb-sr-only">
            {VERSION_TEXTS.unlockHint}
          </span>
        </>
      ) : (
        <Button icon={<PlusOutlined />} disabled={!writable} onClick={() => void create()}>
          New version
        </Button>
      )}
      {!doc.vLocked && (
        <Button icon={<DeleteOutlined />} danger disabled={!writable} onClick={() => void remove()}>
          Delete
        </Button>
      )}
      <Button icon={<BranchesOutlined />} disabled={busy} onClick={() => show('select')} ref={versionsButton}>
        Versions
      </Button>
      <Button icon={<SyncOutlined />} disabled={!writable} onClick={() => show('update')}>
        Update
      </Button>
      <VersionSelectorDialog
        open={dialog === 'select'}
        path={path}
        currentId={doc._id}
        onSelect={(id, version) => {
          chosen.current = true;
          void choose(id, version).then(backToVersions);
        }}
        onClose={() => setDialog(null)}
        afterClose={() => {
          // A version chosen: its question holds the focus, and Versions takes it once answered.
          if (!chosen.current) focus.closed();
          chosen.current = false;
        }}
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
