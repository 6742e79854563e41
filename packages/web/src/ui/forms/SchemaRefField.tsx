import { schemaByNameSchema, schemaDocumentSchema } from '@gdb/shared/schemas/schemas.schemas';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Input, Radio, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { api } from '../../ground/request/api.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useLocalDialogCalls } from '../dialog/calls.ts';
import { Dialog } from '../dialog/Dialog.tsx';
import { useForm, type WidgetProps } from './context.ts';
import { parseNumberInput } from './widgets.tsx';

/**
 * A field whose value follows another data model (widget `schema-ref`, widgetConfig `schemaId` or
 * `schemaName`, and `property` for array and enum models): the value shown shortened with the
 * model's type, edited in a dialog titled with the model's name.
 */

const REF_TEXTS = {
  edit: 'Edit',
  cancel: 'Cancel',
  apply: 'Apply',
  quit: 'Quit ?',
  noRenderer: (type: string) => `No renderer for type ${type}`,
  cannotLoad: (name: string) => `Cannot load schema ${name} from server`,
} as const;
const REF_DIALOG_WIDTH = '60%';
/** Longest text shown for a value: the first 100 and the last 100 characters around an ellipsis. */
const TRUNCATE_AT = 200;

export function truncateText(text: string, max = TRUNCATE_AT): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}…${text.slice(-half)}`;
}

interface Referenced {
  name: string;
  jsonSchema: Record<string, unknown>;
}
const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} };

async function loadReferenced(id: string | undefined, name: string | undefined): Promise<Referenced> {
  const label = name ?? id ?? '';
  const answer = id
    ? await api.get('/schemas/find', schemaDocumentSchema.nullable(), { query: { id }, nothing: REF_TEXTS.cannotLoad(label) })
    : await api.get('/schemas/byname', schemaByNameSchema.nullable(), { query: { name }, nothing: REF_TEXTS.cannotLoad(label) });
  if (!answer) throw new Error(REF_TEXTS.cannotLoad(label));
  return { name: answer.name, jsonSchema: answer.jsonSchema };
}

const typeOf = (schema: Record<string, unknown>): string => {
  if (Array.isArray(schema.enum)) return 'enum';
  return typeof schema.type === 'string' ? schema.type : schema.properties ? 'object' : 'unknown';
};

function ValueEditor({
  schema,
  type,
  property,
  draft,
  onDraft,
}: {
  schema: Record<string, unknown>;
  type: string;
  property: string;
  draft: unknown;
  onDraft: (v: unknown) => void;
}) {
  const { NestedForm: DynamicForm } = useForm();
  if (type === 'object') return <DynamicForm schema={schema} value={draft} name="schema-ref" onChange={(v) => onDraft(v)} />;
  if (type === 'array' || type === 'enum') {
    const wrapped = { type: 'object', properties: { [property]: schema } };
    return (
      <DynamicForm
        schema={wrapped}
        value={{ [property]: draft }}
        name="schema-ref"
        onChange={(v) => onDraft((v as Record<string, unknown>)[property])}
      />
    );
  }
  if (type === 'string')
    return <Input aria-label="Value" value={String(draft ?? '')} onChange={(e) => onDraft(e.target.value)} />;
  if (type === 'number' || type === 'integer')
    return (
      <Input
        aria-label="Value"
        inputMode="decimal"
        defaultValue={draft === undefined || draft === null ? '' : String(draft)}
        onChange={(e) => onDraft(parseNumberInput(e.target.value, type))}
      />
    );
  if (type === 'boolean')
    return (
      <Radio.Group
        aria-label="Value"
        value={draft}
        onChange={(e) => onDraft(e.target.value)}
        options={[
          { value: true, label: 'True' },
          { value: false, label: 'False' },
        ]}
      />
    );
  return <Alert type="warning" showIcon title={REF_TEXTS.noRenderer(type)} />;
}

export function SchemaRefField({ id, value, onChange, disabled, readOnly, config }: WidgetProps) {
  const { message } = App.useApp();
  const [modal, holder] = useLocalDialogCalls();
  const schemaId = typeof config.schemaId === 'string' ? config.schemaId : undefined;
  const schemaName = typeof config.schemaName === 'string' ? config.schemaName : undefined;
  const property = typeof config.property === 'string' && config.property ? config.property : 'value';
  const query = useQuery({
    queryKey: ['schemas', 'reference', schemaId ?? '', schemaName ?? ''],
    queryFn: () => loadReferenced(schemaId, schemaName),
    enabled: Boolean(schemaId || schemaName),
    retry: false,
  });
  useEffect(() => {
    if (query.error) showFailure(query.error, message.error);
  }, [query.error, message]);
  const referenced: Referenced = query.data ?? { name: schemaName ?? schemaId ?? '', jsonSchema: EMPTY_OBJECT_SCHEMA };
  const type = typeOf(referenced.jsonSchema);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<unknown>(value);

  const shown = value === undefined || value === '' ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const start = () => {
    setDraft(value);
    setOpen(true);
  };
  const quit = async () => {
    if (await askConfirmation(modal, REF_TEXTS.quit)) setOpen(false);
  };
  return (
    <div className="gdb-form-ref">
      <Space align="start">
        <Typography.Text id={id} code className="gdb-form-ref-value">
          {truncateText(shown)}
        </Typography.Text>
        <Tag>{type}</Tag>
        <Button size="small" disabled={disabled || readOnly} onClick={start}>
          {REF_TEXTS.edit}
        </Button>
      </Space>
      <Dialog
        open={open}
        title={referenced.name}
        width={REF_DIALOG_WIDTH}
        destroyOnHidden
        onCancel={() => void quit()}
        footer={[
          <Button key="cancel" onClick={() => setOpen(false)}>
            {REF_TEXTS.cancel}
          </Button>,
          <Button
            key="apply"
            type="primary"
            onClick={() => {
              onChange(draft);
              setOpen(false);
            }}
          >
            {REF_TEXTS.apply}
          </Button>,
        ]}
      >
        <ValueEditor schema={referenced.jsonSchema} type={type} property={property} draft={draft} onDraft={setDraft} />
      </Dialog>
      {holder}
    </div>
  );
}
