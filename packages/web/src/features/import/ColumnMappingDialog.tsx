import { type ColumnChoice, MAPPING_MESSAGES, type MatchField, missingRequiredOf } from '@gdb/shared/uploads/column-matcher';
import { Alert, Button, Select, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { errorText } from '../../ground/request/failure.ts';
import { Dialog } from '../../ui/dialog/Dialog.tsx';
import type { FileHead } from './column-mapping.ts';

/** The texts of the column mapping. */
export const MAPPING_TEXTS = {
  title: (dataSubKind: string) => `Match the columns of the file to ${dataSubKind}`,
  intro:
    "The file's header does not name the data model's fields as they are. Choose the field each column goes to, or ignore it.",
  column: 'Column in the file',
  samples: 'First values',
  field: 'Field',
  ignore: 'Ignore',
  fieldOf: (column: string) => `Field for column ${column}`,
  contested: (column: string, field: string) =>
    `${column} also matches ${field}, which another column matches better: left unmapped.`,
  confirm: 'Confirm',
  cancel: 'Cancel',
  remembered: 'The mapping is remembered for this data source: a file with the same header is matched without asking.',
} as const;

/** The value of the select's "Ignore" choice (no field is named by an empty text). */
const IGNORE = '';

export interface ColumnMappingDialogProps {
  dataSubKind: string;
  head: FileHead;
  fields: readonly MatchField[];
  proposed: readonly ColumnChoice[];
  contested: readonly { column: string; field: string }[];
  /** Stores the mapping; the file is then taken. */
  onConfirm: (choices: ColumnChoice[]) => Promise<void>;
  onCancel: () => void;
}

const fieldLabel = (f: MatchField) => `${f.name}${f.title ? ` (${f.title})` : ''}${f.required ? ' *' : ''}`;

/** Step 2's column mapping: each column of the chosen file with its first values and the field it goes to, or "Ignore". */
export function ColumnMappingDialog(props: ColumnMappingDialogProps) {
  const { dataSubKind, head, fields, contested, onConfirm, onCancel } = props;
  const [choices, setChoices] = useState<ColumnChoice[]>(() => [...props.proposed]);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const missing = missingRequiredOf(choices, fields);
  const choose = (column: string, field: string) =>
    setChoices((cs) => cs.map((c) => (c.column === column ? { column, field: field === IGNORE ? null : field } : c)));
  const confirm = async () => {
    setSaving(true);
    setError(null);
    try {
      await onConfirm(choices);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setSaving(false);
    }
  };
  const rows = choices.map((c, i) => ({ ...c, samples: head.samples[i] ?? [] }));
  return (
    <Dialog
      open
      width={760}
      title={MAPPING_TEXTS.title(dataSubKind)}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {MAPPING_TEXTS.cancel}
        </Button>,
        <Button key="confirm" type="primary" loading={saving} disabled={missing.length > 0} onClick={confirm}>
          {MAPPING_TEXTS.confirm}
        </Button>,
      ]}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph>{MAPPING_TEXTS.intro}</Typography.Paragraph>
        <MappingTable rows={rows} fields={fields} choices={choices} onChoose={choose} />
        {contested.map((c) => (
          <Typography.Text key={c.column} type="secondary">
            {MAPPING_TEXTS.contested(c.column, c.field)}
          </Typography.Text>
        ))}
        {missing.length > 0 && <Alert type="warning" showIcon title={MAPPING_MESSAGES.missing(missing)} />}
        {error && <Alert type="error" showIcon title={error} />}
        <Typography.Text type="secondary">{MAPPING_TEXTS.remembered}</Typography.Text>
      </Space>
    </Dialog>
  );
}

type MappingRow = ColumnChoice & { samples: string[] };

/** Each column with its first values and a select of the fields (one taken by another column is disabled). */
function MappingTable({
  rows,
  fields,
  choices,
  onChoose,
}: {
  rows: MappingRow[];
  fields: readonly MatchField[];
  choices: readonly ColumnChoice[];
  onChoose: (column: string, field: string) => void;
}) {
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="column"
      dataSource={rows}
      columns={[
        { title: MAPPING_TEXTS.column, dataIndex: 'column', key: 'column' },
        {
          title: MAPPING_TEXTS.samples,
          key: 'samples',
          render: (_, row) => <Typography.Text type="secondary">{row.samples.join(', ')}</Typography.Text>,
        },
        {
          title: MAPPING_TEXTS.field,
          key: 'field',
          render: (_, row) => (
            <Select
              aria-label={MAPPING_TEXTS.fieldOf(row.column)}
              style={{ minWidth: 220 }}
              value={row.field ?? IGNORE}
              onChange={(v: string) => onChoose(row.column, v)}
              options={[
                { value: IGNORE, label: MAPPING_TEXTS.ignore },
                ...fields.map((f) => ({
                  value: f.name,
                  label: fieldLabel(f),
                  disabled: choices.some((c) => c.field === f.name && c.column !== row.column),
                })),
              ]}
            />
          ),
        },
      ]}
    />
  );
}
