import { DeleteOutlined } from '@ant-design/icons';
import { findWithAncestors, isSchemaKind, SCHEMA_KINDS, type SchemaNode, valuesOf } from '@gdb/shared/schemas/schema-nodes';
import {
  coerceValue,
  isNamedBy,
  type OptionField,
  optionError,
  optionFields,
  parseEnumValue,
  RULE_MESSAGES,
} from '@gdb/shared/schemas/schema-rules';
import { ALIASES_KEYWORD } from '@gdb/shared/uploads/column-matcher';
import { Button, Checkbox, Empty, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useId, useState } from 'react';
import { AliasesOption } from './AliasesOption.tsx';
import { changeKind, type EditResult, isRequired, renameNode, setOption, setRequired, setValues } from './model/schema-edit.ts';

export interface PropertyInspectorProps {
  root: SchemaNode;
  selected: string | null;
  readOnly: boolean;
  /** Applies an edit; answers its refusal, if any. */
  apply: (edit: (root: SchemaNode) => EditResult) => string | null;
}

/** The property inspector: the selected node's name, type, required mark and the options of its type. */
export function PropertyInspector({ root, selected, readOnly, apply }: PropertyInspectorProps) {
  const found = selected ? findWithAncestors(root, selected) : null;
  if (!found) return <Empty description="Select a node to see its properties." />;
  const { node, ancestors } = found;
  const parent = ancestors.at(-1) ?? null;
  return (
    <Form layout="vertical" component="div" disabled={readOnly} key={node.id} className="gdb-schema-inspector">
      {isNamedBy(parent) && (
        <TextOption label="Name" value={node.name} onCommit={(v) => apply((r) => renameNode(r, node.id, v))} />
      )}
      {isSchemaKind(node.kind) && <KindOption node={node} onChange={(kind) => apply((r) => changeKind(r, node.id, kind))} />}
      {parent?.kind === 'properties' && ancestors.at(-2)?.kind === 'object' && (
        <Form.Item>
          <Checkbox checked={isRequired(root, node.id)} onChange={(e) => apply((r) => setRequired(r, node.id, e.target.checked))}>
            Required
          </Checkbox>
        </Form.Item>
      )}
      {parent?.kind === 'properties' && isSchemaKind(node.kind) && (
        <AliasesOption
          value={node.options[ALIASES_KEYWORD]}
          onCommit={(aliases) => apply((r) => setOption(r, node.id, ALIASES_KEYWORD, aliases))}
        />
      )}
      {optionFields(node.kind).map((field) => (
        <FieldOption key={field.key} field={field} node={node} apply={apply} />
      ))}
      {(node.kind === 'enum' || node.kind === 'required' || node.kind === 'dependencyItem') && (
        <ValuesOption node={node} parent={parent} ancestors={ancestors} readOnly={readOnly} apply={apply} />
      )}
    </Form>
  );
}

function KindOption({ node, onChange }: { node: SchemaNode; onChange: (kind: SchemaNode['kind']) => void }) {
  const id = useId();
  return (
    <Form.Item label="Type" htmlFor={id}>
      <Select id={id} value={node.kind} onChange={onChange} options={SCHEMA_KINDS.map((k) => ({ value: k, label: k }))} />
    </Form.Item>
  );
}

/** A text input committed on Enter or when it loses focus; its refusal is shown under it. */
function TextOption({ label, value, onCommit }: { label: string; value: string; onCommit: (text: string) => string | null }) {
  const id = useId();
  const [text, setText] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    if (text === value) return;
    setError(onCommit(text));
  };
  return (
    <Form.Item label={label} htmlFor={id} validateStatus={error ? 'error' : ''} help={error}>
      <Input id={id} value={text} onChange={(e) => setText(e.target.value)} onBlur={commit} onPressEnter={commit} />
    </Form.Item>
  );
}

const shown = (value: unknown): string => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** One option of the node's type, checked against its limits before it is set. */
function FieldOption({ field, node, apply }: { field: OptionField; node: SchemaNode; apply: PropertyInspectorProps['apply'] }) {
  const id = useId();
  const value = node.options[field.key];
  const set = (next: unknown) => apply((r) => setOption(r, node.id, field.key, next));
  if (field.input === 'boolean') {
    return (
      <Form.Item>
        <Checkbox id={id} checked={value === true} onChange={(e) => set(e.target.checked ? true : undefined)}>
          {field.label}
        </Checkbox>
      </Form.Item>
    );
  }
  if (field.input === 'select') {
    return (
      <Form.Item label={field.label} htmlFor={id}>
        <Select
          id={id}
          allowClear
          value={typeof value === 'string' ? value : undefined}
          onChange={(v: string | undefined) => set(v)}
          options={(field.choices ?? []).map((c) => ({ value: c, label: c }))}
        />
      </Form.Item>
    );
  }
  const read = (text: string): { ok: true; value: unknown } | { ok: false; error: string } => {
    if (text.trim() === '') return { ok: true, value: undefined };
    if (field.input === 'integer' || field.input === 'number') return coerceValue(text, field.input);
    // The value-schema editor: a default is read as the node's own type.
    if (field.input === 'json') return coerceValue(text, node.kind);
    return { ok: true, value: text };
  };
  return (
    <TextOption
      label={field.label}
      value={shown(value)}
      onCommit={(text) => {
        const parsed = read(text);
        if (!parsed.ok) return parsed.error;
        const error = optionError(field, parsed.value);
        return error ?? set(parsed.value);
      }}
    />
  );
}

/** The list of an enum (JSON values of the parent's type), of required or of a property dependency (property names). */
function ValuesOption({
  node,
  parent,
  ancestors,
  readOnly,
  apply,
}: {
  node: SchemaNode;
  parent: SchemaNode | null;
  ancestors: SchemaNode[];
  readOnly: boolean;
  apply: PropertyInspectorProps['apply'];
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const values = valuesOf(node);
  const object = node.kind === 'dependencyItem' ? ancestors.at(-2) : parent;
  const names = object?.children.find((c) => c.kind === 'properties')?.children.map((c) => c.name) ?? [];
  const add = (value: unknown) => {
    if (values.some((v) => JSON.stringify(v) === JSON.stringify(value))) return setError(RULE_MESSAGES.listedTwice);
    setError(apply((r) => setValues(r, node.id, [...values, value])));
    setText('');
  };
  const addText = () => {
    if (!parent) return;
    const parsed = parseEnumValue(text, parent.kind);
    if (!parsed.ok) return setError(parsed.error);
    add(parsed.value);
  };
  return (
    <Space orientation="vertical" className="gdb-schema-values">
      <Typography.Text strong>Values</Typography.Text>
      <Space wrap>
        {values.map((v, i) => (
          <Tag key={JSON.stringify(v)}>
            {JSON.stringify(v)}
            <Button
              type="text"
              size="small"
              icon={<DeleteOutlined />}
              aria-label={`Remove ${JSON.stringify(v)}`}
              disabled={readOnly}
              onClick={() =>
                apply((r) =>
                  setValues(
                    r,
                    node.id,
                    values.filter((_, j) => j !== i),
                  ),
                )
              }
            />
          </Tag>
        ))}
      </Space>
      {node.kind === 'enum' ? (
        <Form.Item label="Add a value (JSON)" htmlFor={id} validateStatus={error ? 'error' : ''} help={error}>
          <Space.Compact>
            <Input id={id} value={text} onChange={(e) => setText(e.target.value)} onPressEnter={addText} />
            <Button onClick={addText}>Add</Button>
          </Space.Compact>
        </Form.Item>
      ) : (
        <Form.Item label="Add a property" htmlFor={id} validateStatus={error ? 'error' : ''} help={error}>
          <Select
            id={id}
            value={null}
            onChange={(v: string) => add(v)}
            options={names.filter((n) => !values.includes(n)).map((n) => ({ value: n, label: n }))}
          />
        </Form.Item>
      )}
    </Space>
  );
}
