import { TAG_SELECTOR } from '@gdb/shared/tags/tag-selector';
import type { Tag } from '@gdb/shared/tags/tags.schemas';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { Dialog } from '../dialog/Dialog.tsx';
import { TagSelector } from './TagSelector.tsx';
import { useSaveOnClose } from './useSaveOnClose.ts';

/** A document's badges: read and write as groups of badge ids (one whole group suffices), and metadata badges. */
export interface DocumentBadges {
  read: string[][];
  write: string[][];
  metadataTags: string[];
}

export interface DocumentBadgesDialogProps {
  open: boolean;
  /** Whose badges: the folder or document name. */
  title: string;
  /** Every badge; project badges are offered for read and write, metadata badges as metadata. */
  tags: readonly Tag[];
  value: DocumentBadges;
  /** Components carry metadata badges too. */
  withMetadata: boolean;
  /** Takes the new badges; a rejection keeps the dialog open. */
  onSave: (value: DocumentBadges) => Promise<void>;
  onClose: () => void;
}

type Action = 'read' | 'write';

const ACTION_LABELS: Record<Action, string> = { read: 'Read badges', write: 'Write badges' };

/** The groups as edited: always at least one (empty) group to tick in. */
const editable = (groups: readonly (readonly string[])[]) => (groups.length > 0 ? groups.map((g) => [...g]) : [[]]);

const start = (v: DocumentBadges): DocumentBadges => ({
  read: editable(v.read),
  write: editable(v.write),
  metadataTags: [...v.metadataTags],
});

/** The groups as saved: empty groups dropped. */
const saved = (groups: readonly string[][]) => groups.filter((g) => g.length > 0);

const key = (groups: readonly (readonly string[])[]) =>
  JSON.stringify(
    groups
      .filter((g) => g.length > 0)
      .map((g) => [...g].sort())
      .sort(),
  );

const sameBadges = (a: DocumentBadges, b: DocumentBadges) =>
  key(a.read) === key(b.read) &&
  key(a.write) === key(b.write) &&
  [...a.metadataTags].sort().join() === [...b.metadataTags].sort().join();

/**
 * The Manage document badges dialog, 70% wide: read badges and write badges, each as groups (a
 * user holding every badge of one group passes), and metadata badges for components, each
 * selector box at most 120 px high. Closing with unsaved changes asks 'Do you want to save the
 * current modifications?'.
 */
export function DocumentBadgesDialog({ open, title, tags, value, withMetadata, onSave, onClose }: DocumentBadgesDialogProps) {
  const [badges, setBadges] = useState<DocumentBadges>(() => start(value));

  // biome-ignore lint/correctness/useExhaustiveDependencies: each opening starts from the value given
  useEffect(() => {
    if (open) setBadges(start(value));
  }, [open]);

  const project = tags.filter((t) => !t.isMetadata);
  const metadata = tags.filter((t) => t.isMetadata);
  const changed = !sameBadges(badges, value);

  const { saving, save, close } = useSaveOnClose(
    changed,
    () => onSave({ read: saved(badges.read), write: saved(badges.write), metadataTags: badges.metadataTags }),
    onClose,
  );

  const setGroup = (action: Action, at: number, ids: string[]) =>
    setBadges((b) => ({ ...b, [action]: b[action].map((g, i) => (i === at ? ids : g)) }));
  const addGroup = (action: Action) => setBadges((b) => ({ ...b, [action]: [...b[action], []] }));
  const removeGroup = (action: Action, at: number) =>
    setBadges((b) => ({ ...b, [action]: editable(b[action].filter((_, i) => i !== at)) }));

  return (
    <Dialog
      open={open}
      title={`Manage badges of ${title}`}
      width="70%"
      destroyOnHidden
      onCancel={() => void close()}
      footer={[
        <Button key="cancel" onClick={() => void close()}>
          Cancel
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void save()}>
          Save
        </Button>,
      ]}
    >
      <div className="gdb-badges-dialog-sections">
        {(['read', 'write'] as const).map((action) => (
          <section key={action} className="gdb-document-badges-action" aria-label={ACTION_LABELS[action]}>
            {badges[action].map((group, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a group has no id of its own
              <div key={i} className="gdb-document-badges-group">
                <TagSelector
                  label={badges[action].length > 1 ? `${ACTION_LABELS[action]}, group ${i + 1}` : ACTION_LABELS[action]}
                  tags={project}
                  value={group}
                  maxHeight={TAG_SELECTOR.badgeDialogMaxHeight}
                  onChange={(ids) => setGroup(action, i, ids)}
                />
                {badges[action].length > 1 ? (
                  <Button size="small" type="link" onClick={() => removeGroup(action, i)}>
                    {`Remove ${action} group ${i + 1}`}
                  </Button>
                ) : null}
              </div>
            ))}
            <Button size="small" onClick={() => addGroup(action)}>
              {`Add a ${action} group`}
            </Button>
          </section>
        ))}
        {withMetadata ? (
          <section className="gdb-document-badges-action" aria-label="Metadata badges">
            <TagSelector
              label="Metadata badges"
              tags={metadata}
              value={badges.metadataTags}
              maxHeight={TAG_SELECTOR.badgeDialogMaxHeight}
              onChange={(ids) => setBadges((b) => ({ ...b, metadataTags: ids }))}
            />
          </section>
        ) : null}
      </div>
    </Dialog>
  );
}
