import { QuestionCircleOutlined } from '@ant-design/icons';
import { Alert, Tooltip } from 'antd';
import { memo, useCallback } from 'react';
import { ArrayField } from './ArrayField.tsx';
import { type FieldProps, useFieldResult, useFieldValue, useForm, useRevision } from './context.ts';
import { isExpression } from './expression.ts';
import { fieldId } from './form-names.ts';
import { SafeHtml } from './SafeHtml.tsx';
import { SchemaRefField } from './SchemaRefField.tsx';
import type { FieldSchema } from './schema.ts';
import { isRequired, type Path, pathKey } from './store.ts';
import { BUILT_IN_WIDGETS } from './widgets.tsx';

/** True when an option of the field is an expression: the field then follows every change of the form. */
const isDynamic = (field: FieldSchema) =>
  isExpression(field.ui.hidden) ||
  isExpression(field.ui.disabled) ||
  isExpression(field.ui.readonly) ||
  isExpression(field.rules.required) ||
  isExpression((field.rules.required as { value?: unknown } | undefined)?.value);

function HelpIcon({ field }: { field: FieldSchema }) {
  const help = field.ui.help;
  if (!help.show || !help.content) return null;
  return (
    <Tooltip title={help.content}>
      <QuestionCircleOutlined aria-label={help.content} className="gdb-form-help" tabIndex={0} />
      {help.text ? <span className="gdb-form-help-text">{help.text}</span> : null}
    </Tooltip>
  );
}

/** One field of any type, with its label, description, help and validation message. */
/** Same field, same path (by its text), same inherited state: nothing to draw again. */
const sameField = (a: FieldProps, b: FieldProps) =>
  a.field === b.field &&
  pathKey(a.path) === pathKey(b.path) &&
  a.inheritedDisabled === b.inheritedDisabled &&
  a.inheritedReadOnly === b.inheritedReadOnly &&
  a.bare === b.bare;

export const Field = memo(function Field({ field, path, inheritedDisabled, inheritedReadOnly, bare }: FieldProps) {
  const { store, name, widgets, disabled: formDisabled } = useForm();
  useRevision(store, isDynamic(field));
  const hidden = store.option(field, 'hidden', path);
  const disabled = Boolean(formDisabled || inheritedDisabled || store.option(field, 'disabled', path));
  const readOnly = Boolean(inheritedReadOnly || store.option(field, 'readonly', path));
  if (hidden) return null;
  if (field.type === 'object' && field.ui.widget === 'object') {
    return <ObjectField field={field} path={path} disabled={disabled} readOnly={readOnly} bare={bare} />;
  }
  if (field.type === 'array' && (field.ui.widget === 'array' || field.ui.widget === 'array-table')) {
    return <ArrayField field={field} path={path} disabled={disabled} readOnly={readOnly} />;
  }
  if (field.type === 'HTML') {
    return <SafeHtml className="gdb-form-html" html={typeof field.value === 'string' ? field.value : ''} />;
  }
  const widget =
    widgets[field.ui.widget] ??
    (field.ui.widget === 'schema-ref' ? SchemaRefField : BUILT_IN_WIDGETS[field.ui.widget]) ??
    (field.type === 'COMP' ? undefined : fallbackWidget(field));
  return (
    <LeafField
      field={field}
      path={path}
      id={fieldId(name, pathKey(path))}
      disabled={disabled}
      readOnly={readOnly}
      bare={Boolean(bare)}
      Widget={widget}
    />
  );
}, sameField);

/** A widget the page did not provide (a picker of documents, say): the plain input of the field's type. */
const fallbackWidget = (field: FieldSchema) =>
  field.type === 'array' ? BUILT_IN_WIDGETS.select : field.type === 'object' ? BUILT_IN_WIDGETS.code : BUILT_IN_WIDGETS.input;

interface LeafProps {
  field: FieldSchema;
  path: Path;
  id: string;
  disabled: boolean;
  readOnly: boolean;
  bare: boolean;
  Widget: (typeof BUILT_IN_WIDGETS)[string] | undefined;
}

function LeafField({ field, path, id, disabled, readOnly, bare, Widget }: LeafProps) {
  const { store } = useForm();
  const value = useFieldValue(store, path);
  const result = useFieldResult(store, path);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is compared by its text
  const onChange = useCallback((next: unknown) => store.set(path, next), [store, pathKey(path)]);
  const invalid = result.status === 'invalid';
  const placeholder = field.ui.placeholder || String(field.ui.widgetConfig.placeholder ?? '');
  const input = Widget ? (
    <Widget
      id={id}
      value={value}
      onChange={onChange}
      field={field}
      path={path}
      disabled={disabled}
      readOnly={readOnly}
      placeholder={placeholder}
      config={field.ui.widgetConfig}
      invalid={invalid}
    />
  ) : (
    <Alert type="warning" showIcon title={`No component named ${field.ui.widget}`} />
  );
  const showLabel = !bare && field.ui.showLabel && !field.ui.noLabelSpace && field.ui.widget !== 'checkbox';
  const { invalidFeedbackCls } = store.config.style;
  return (
    <div
      className={`gdb-form-field gdb-form-field--${result.status}`}
      data-field-status={result.status}
      data-field-path={pathKey(path)}
    >
      {showLabel ? (
        <div className="gdb-form-label">
          <label htmlFor={id} className={isRequired(store, field, path) ? 'gdb-form-required' : undefined}>
            {field.ui.label}
          </label>
          <HelpIcon field={field} />
        </div>
      ) : null}
      {input}
      {result.message ? (
        <div
          className={['gdb-form-message', invalid ? invalidFeedbackCls : ''].filter(Boolean).join(' ')}
          role={invalid ? 'alert' : 'status'}
        >
          {result.message}
        </div>
      ) : null}
      {field.ui.description ? <div className="gdb-form-description">{field.ui.description}</div> : null}
    </div>
  );
}

interface LayoutProps {
  field: FieldSchema;
  path: Path;
  disabled: boolean;
  readOnly: boolean;
  bare?: boolean | undefined;
}

/** An object: its properties on a grid of 12 columns (each field's `columns`, 12 by default). */
function ObjectField({ field, path, disabled, readOnly, bare }: LayoutProps) {
  const { store } = useForm();
  const result = useFieldResult(store, path);
  const entries = Object.entries(field.properties ?? {});
  // A grid of 12 columns drawn by CSS (antd's Row and Col would each follow the screen's breakpoints).
  const body = (
    <div className="gdb-form-grid">
      {entries.map(([key, child]) => (
        <div key={key} className={`gdb-form-cell gdb-form-span-${child.ui.columns}`}>
          <Field field={child} path={[...path, key]} inheritedDisabled={disabled} inheritedReadOnly={readOnly} />
        </div>
      ))}
    </div>
  );
  const message = result.message ? (
    <div className="gdb-form-group-message" data-field-status={result.status} role="alert">
      {result.message}
    </div>
  ) : null;
  if (path.length === 0 || bare || !field.ui.showLegend) {
    return (
      <div className="gdb-form-object" data-field-path={pathKey(path)}>
        {body}
        {message}
      </div>
    );
  }
  return (
    <fieldset className="gdb-form-object gdb-form-fieldset" data-field-path={pathKey(path)}>
      <legend>
        {field.ui.legend || field.ui.label}
        <HelpIcon field={field} />
      </legend>
      {field.ui.description ? <div className="gdb-form-description">{field.ui.description}</div> : null}
      {body}
      {message}
    </fieldset>
  );
}
