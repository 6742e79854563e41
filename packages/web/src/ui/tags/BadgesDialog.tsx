import { TAG_SELECTOR } from '@gdb/shared/tags/tag-selector';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { Dialog } from '../dialog/Dialog.tsx';
import { type SelectableTag, TagSelector } from './TagSelector.tsx';
import { useSaveOnClose } from './useSaveOnClose.ts';

/** One selector of the dialog: a label, the badges it offers and the ids selected when it opens. */
interface BadgeSection {
  key: string;
  label: string;
  tags: readonly SelectableTag[];
  value: readonly string[];
}

export type BadgeValues = Record<string, string[]>;

export interface BadgesDialogProps {
  open: boolean;
  title: string;
  sections: readonly BadgeSection[];
  /** Selector box maximum height: 120 for documents, 220 on the user screens. */
  maxHeight?: number;
  /** Takes the new selections; a rejection keeps the dialog open. */
  onSave: (values: BadgeValues) => void | Promise<void>;
  /** Called once the dialog has closed, saved or not. */
  onClose: () => void;
}

const initial = (sections: readonly BadgeSection[]): BadgeValues =>
  Object.fromEntries(sections.map((s) => [s.key, [...s.value]]));

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');

/**
 * The manage-badges dialog (docs/product.md §7.3): one badge selector per section, width 70%. Closing with
 * unsaved changes asks 'Do you want to save the current modifications?'.
 */
export function BadgesDialog({
  open,
  title,
  sections,
  maxHeight = TAG_SELECTOR.badgeDialogMaxHeight,
  onSave,
  onClose,
}: BadgesDialogProps) {
  const [values, setValues] = useState<BadgeValues>(() => initial(sections));

  // Each opening starts from the values given.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the dialog opens
  useEffect(() => {
    if (open) setValues(initial(sections));
  }, [open]);

  const changed = sections.some((s) => !same(s.value, values[s.key] ?? []));

  const { saving, save, close } = useSaveOnClose(changed, () => onSave(values), onClose);

  return (
    <Dialog
      open={open}
      title={title}
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
        {sections.map((s) => (
          <TagSelector
            key={s.key}
            label={s.label}
            tags={s.tags}
            value={values[s.key] ?? []}
            maxHeight={maxHeight}
            onChange={(ids) => setValues((v) => ({ ...v, [s.key]: ids }))}
          />
        ))}
      </div>
    </Dialog>
  );
}
