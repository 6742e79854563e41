import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';
import { App, Button, Empty, Radio, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { findSchema, schemaByName } from '../../ground/calls/schemas.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { Dialog } from '../../ui/dialog/Dialog.tsx';
import { SchemaPicker } from '../../ui/versions/SchemaPicker.tsx';

/** The schema reference dialogs are 60% wide. */
const WIDTH = '60%';

const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The target of a `$ref`: the data model (by version id, or by name in the older form) and the fragment. */
export function splitRef(ref: string): { target: string; fragment: string } {
  const [target = '', ...rest] = ref.split('#');
  return { target, fragment: rest.join('#') };
}

/** Reads the data model a reference names: by id, else by name. */
async function resolveRef(target: string): Promise<{ _id: string; name: string; jsonSchema: Record<string, unknown> }> {
  if (ID_PATTERN.test(target)) return findSchema(target);
  return schemaByName(target);
}

export interface SelectReferenceDialogProps {
  open: boolean;
  /** The data model referenced now, if any. */
  current: string | null;
  onSelect: (id: string) => void;
  onClose: () => void;
}

/** Select Referenced Schema: a data model version the node points at. */
export function SelectReferenceDialog({ open, current, onSelect, onClose }: SelectReferenceDialogProps) {
  const [value, setValue] = useState<string | null>(current);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each opening starts from the current reference
  useEffect(() => {
    if (open) setValue(current);
  }, [open]);
  return (
    <Dialog
      open={open}
      title="Select Referenced Schema"
      width={WIDTH}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="ok" type="primary" disabled={!value} onClick={() => value && onSelect(value)}>
          OK
        </Button>,
      ]}
    >
      <SchemaPicker value={value} onChange={setValue} />
    </Dialog>
  );
}

/** The places a reference can point at inside a data model: its properties and definitions. */
function pointers(doc: { jsonSchema: Record<string, unknown> }): string[] {
  const out = [''];
  for (const key of ['properties', 'definitions']) {
    const part = doc.jsonSchema[key];
    if (part && typeof part === 'object') for (const name of Object.keys(part)) out.push(`/${key}/${name}`);
  }
  return out;
}

export interface SelectPropertyDialogProps {
  open: boolean;
  /** The `$ref` of the node. */
  reference: string;
  onSelect: (ref: string) => void;
  onClose: () => void;
}

/** Select Property: the property or definition of the referenced data model the node points at. */
export function SelectPropertyDialog({ open, reference, onSelect, onClose }: SelectPropertyDialogProps) {
  const { message } = App.useApp();
  const { target, fragment } = splitRef(reference);
  const [doc, setDoc] = useState<Pick<SchemaDocument, '_id' | 'name' | 'jsonSchema'> | null>(null);
  const [choice, setChoice] = useState(fragment);
  const [loading, setLoading] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once per opening
  useEffect(() => {
    if (!open) return;
    setDoc(null);
    setChoice(fragment);
    setLoading(true);
    resolveRef(target)
      .then(setDoc)
      .catch((error: unknown) => showFailure(error, message.error))
      .finally(() => setLoading(false));
  }, [open, target]);
  return (
    <Dialog
      open={open}
      title="Select Property"
      width={WIDTH}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="ok" type="primary" disabled={!doc} onClick={() => onSelect(choice ? `${target}#${choice}` : target)}>
          OK
        </Button>,
      ]}
    >
      {loading && <Spin />}
      {!loading && !doc && <Empty description="The referenced schema could not be read." />}
      {doc && (
        <Radio.Group value={choice} onChange={(e) => setChoice(String(e.target.value))} aria-label={`Properties of ${doc.name}`}>
          <Space orientation="vertical">
            {pointers(doc).map((p) => (
              <Radio key={p} value={p}>
                {p === '' ? `The whole schema ${doc.name}` : p}
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      )}
    </Dialog>
  );
}
