import { Checkbox, Input, Radio, Select, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { LazyCodeEditor } from '../code/LazyCodeEditor.tsx';
import { DocumentListPicker, DocumentPicker } from '../pickers/DocumentPicker.tsx';
import { PipelineSelector } from '../pickers/PipelineSelector.tsx';
import { textRows } from '../textRows.ts';
import { SchemaPicker } from '../versions/SchemaPicker.tsx';
import { useForm, type Widget, type WidgetProps } from './context.ts';
import type { PreviewOption } from './schema.ts';

/** A number typed in an integer or number field: the number, or '' when the text is not one. */
export function parseNumberInput(text: string, type: 'integer' | 'number'): number | '' {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const n = type === 'integer' ? Number.parseInt(trimmed, 10) : Number.parseFloat(trimmed);
  return Number.isFinite(n) ? n : '';
}

const text = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function NumberInput({ id, value, onChange, field, disabled, readOnly, placeholder, invalid }: WidgetProps) {
  const [typed, setTyped] = useState(text(value));
  const type = field.type === 'integer' ? 'integer' : 'number';
  // A value set from outside (reset, a template) replaces what was typed.
  useEffect(() => {
    setTyped((t) => (parseNumberInput(t, type) === value ? t : text(value)));
  }, [value, type]);
  return (
    <Input
      id={id}
      inputMode={type === 'integer' ? 'numeric' : 'decimal'}
      value={typed}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={placeholder}
      aria-invalid={invalid}
      status={invalid ? 'error' : undefined}
      onChange={(e) => {
        setTyped(e.target.value);
        onChange(parseNumberInput(e.target.value, type));
      }}
    />
  );
}

function Preview({ preview, value }: { preview: PreviewOption; value: unknown }) {
  const url = preview.value ?? text(value);
  if (!/^https?:\/\//i.test(url)) return null;
  if (preview.type === 'image') return <img className="gdb-form-preview" src={url} alt="Preview" />;
  return (
    <a className="gdb-form-preview" href={url} target="_blank" rel="noopener noreferrer">
      {url}
    </a>
  );
}

function TextInput(props: WidgetProps) {
  const { id, value, onChange, field, disabled, readOnly, placeholder, invalid } = props;
  if (field.type === 'number' || field.type === 'integer') return <NumberInput {...props} />;
  return (
    <>
      <Input
        id={id}
        type={props.config.type === 'password' ? 'password' : 'text'}
        value={text(value)}
        disabled={disabled}
        readOnly={readOnly}
        placeholder={placeholder}
        aria-invalid={invalid}
        status={invalid ? 'error' : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {field.ui.preview ? <Preview preview={field.ui.preview} value={value} /> : null}
    </>
  );
}

function TextArea({ id, value, onChange, disabled, readOnly, placeholder, invalid, config }: WidgetProps) {
  return (
    <Input.TextArea
      id={id}
      value={text(value)}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={placeholder}
      aria-invalid={invalid}
      status={invalid ? 'error' : undefined}
      rows={textRows(text(value), Number(config.rows ?? 2), 12)}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** Code (a script, or the JSON of an object or array field), in the JavaScript editor. */
function CodeInput({ id, value, onChange, field, disabled, readOnly, invalid }: WidgetProps) {
  const structured = field.type === 'object' || field.type === 'array';
  const shown = structured ? JSON.stringify(value ?? (field.type === 'array' ? [] : {}), null, 4) : text(value);
  const [typed, setTyped] = useState(shown);
  const [bad, setBad] = useState(false);
  useEffect(() => {
    setTyped((t) => {
      if (!structured) return shown;
      try {
        return JSON.stringify(JSON.parse(t)) === JSON.stringify(value) ? t : shown;
      } catch {
        return t;
      }
    });
  }, [shown, structured, value]);
  return (
    <LazyCodeEditor
      id={id}
      label={field.ui.label || 'Code'}
      value={typed}
      readOnly={disabled || readOnly}
      invalid={invalid || bad}
      height="small"
      onChange={(next) => {
        setTyped(next);
        if (!structured) return onChange(next);
        try {
          onChange(JSON.parse(next));
          setBad(false);
        } catch {
          setBad(true);
        }
      }}
    />
  );
}

interface Option {
  value: string | number | boolean;
  label: string;
}
function optionsOf(props: WidgetProps): Option[] {
  const source = props.config.enumSource ?? props.field.enum ?? props.field.items?.enum;
  if (!Array.isArray(source)) return [];
  return source.map((o) =>
    o && typeof o === 'object'
      ? { value: (o as Option).value, label: String((o as Option).label ?? (o as Option).value) }
      : { value: o as string, label: String(o) },
  );
}

function SelectInput(props: WidgetProps) {
  const { id, value, onChange, field, disabled, readOnly, placeholder, invalid } = props;
  const multiple = field.type === 'array';
  const options = optionsOf(props);
  return (
    <Select
      id={id}
      style={{ width: '100%' }}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      mode={multiple ? (options.length === 0 ? 'tags' : 'multiple') : undefined}
      value={multiple ? ((value as string[]) ?? []) : value === '' || value === null ? undefined : (value as string)}
      disabled={disabled || readOnly}
      placeholder={placeholder}
      status={invalid ? 'error' : undefined}
      onChange={(next) => onChange(next ?? (multiple ? [] : ''))}
      options={options.map((o) => ({ value: o.value as string, label: o.label }))}
    />
  );
}

const TRUE_FALSE: Option[] = [
  { value: true, label: 'True' },
  { value: false, label: 'False' },
];

function RadioInput(props: WidgetProps) {
  const { id, value, onChange, field, disabled, readOnly } = props;
  const options = field.type === 'boolean' && optionsOf(props).length === 0 ? TRUE_FALSE : optionsOf(props);
  return (
    <Radio.Group
      id={id}
      value={value}
      disabled={disabled || readOnly}
      onChange={(e) => onChange(e.target.value)}
      options={options.map((o) => ({ value: o.value, label: o.label }))}
    />
  );
}

function CheckboxInput({ id, value, onChange, disabled, readOnly, field }: WidgetProps) {
  return (
    <Checkbox id={id} checked={Boolean(value)} disabled={disabled || readOnly} onChange={(e) => onChange(e.target.checked)}>
      {field.ui.label}
    </Checkbox>
  );
}

function SwitchInput({ id, value, onChange, disabled, readOnly }: WidgetProps) {
  return <Switch id={id} checked={Boolean(value)} disabled={disabled || readOnly} onChange={(v) => onChange(v)} />;
}

function SchemaInput({ value, onChange, disabled, readOnly }: WidgetProps) {
  const { onEditSchema } = useForm();
  return (
    <SchemaPicker
      value={typeof value === 'string' && value ? value : null}
      onChange={(id) => onChange(id ?? '')}
      readOnly={disabled || readOnly}
      {...(onEditSchema ? { onEdit: onEditSchema } : {})}
    />
  );
}

const idOf = (value: unknown) => (typeof value === 'string' && value ? value : null);

/** The pickers of documents (docs/product.md §18.5): one version, or for an array field a list of them. */
function DocumentInput({ kind, value, onChange, field, disabled, readOnly }: WidgetProps & { kind: 'component' | 'sdk' }) {
  if (field.type === 'array') {
    const ids = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    return <DocumentListPicker kind={kind} value={ids} onChange={onChange} readOnly={disabled || readOnly} />;
  }
  return <DocumentPicker kind={kind} value={idOf(value)} onChange={(id) => onChange(id ?? '')} readOnly={disabled || readOnly} />;
}

const ComponentInput = (props: WidgetProps) => <DocumentInput kind="component" {...props} />;
const SdkInput = (props: WidgetProps) => <DocumentInput kind="sdk" {...props} />;

function PipelineInput({ value, onChange, disabled, readOnly }: WidgetProps) {
  return <PipelineSelector value={idOf(value)} onChange={(id) => onChange(id ?? '')} readOnly={disabled || readOnly} />;
}

export const BUILT_IN_WIDGETS: Record<string, Widget> = {
  input: TextInput,
  text: TextInput,
  number: NumberInput,
  textarea: TextArea,
  code: CodeInput,
  select: SelectInput,
  radio: RadioInput,
  checkbox: CheckboxInput,
  switch: SwitchInput,
  schema: SchemaInput,
  component: ComponentInput,
  sdk: SdkInput,
  pipeline: PipelineInput,
};
