import { ajaxRuleIssue, FORM_CHECK_MESSAGES } from '@gdb/shared/schemas/form-checks';
import { Alert, Form } from 'antd';
import { type Ref, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { useFormCheckUrls } from '../../ground/session/session.ts';
import { useLocalDialogCalls } from '../dialog/calls.ts';
import { FormContext, type FormContextValue, type Widget } from './context.ts';
import { Field } from './Field.tsx';
import { claimFormName, DEFAULT_FORM_NAME, formLanguage, releaseFormName } from './form-names.ts';
import { normaliseSchema, type RootSchema } from './schema.ts';
import { firstVisibleError, scrollToField } from './scroll.ts';
import { FormStore, type Path } from './store.ts';
import './forms.css';

export interface DynamicFormHandle {
  /** Validates every field; on failure scrolls to the first visible error (when the form asks so). */
  validate(): Promise<boolean>;
  /** Back to the original value. */
  reset(): void;
  getValue(): Record<string, unknown>;
  isDirty(): boolean;
  setValue(path: Path, value: unknown): void;
}

export interface DynamicFormProps {
  /** The form schema: a JSON schema with the form library's field options (an object, or its JSON text). */
  schema: unknown;
  /** The document to edit; a new value (not equal to the current one) reloads the form. */
  value?: unknown;
  /** Form name: field ids start with it; a name already on the page is warned about and changed. */
  name?: string;
  onChange?: (value: Record<string, unknown>, state: { dirty: boolean }) => void;
  /** Pressing Enter in a field, or the handle's validate, after every rule passed. */
  onSubmit?: (value: Record<string, unknown>) => void;
  /** Named components for COMP fields and widgets of our own (e.g. pickers of documents). */
  widgets?: Record<string, Widget>;
  /** The edit action of the data model picker; without it the picker opens the editor in a new tab. */
  onEditSchema?: (id: string) => void;
  disabled?: boolean;
  ref?: Ref<DynamicFormHandle>;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

const textOf = (schema: unknown) => {
  try {
    return typeof schema === 'string' ? schema : JSON.stringify(schema);
  } catch {
    return String(schema);
  }
};

/** The normalised schema, kept while its content is the same (a host may rebuild the object at each render). */
function useSchema(schema: unknown): { root?: RootSchema; error?: string } {
  const text = textOf(schema);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the schema is compared by its content
  return useMemo(() => {
    try {
      return { root: normaliseSchema(schema) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, [text]);
}

function useFormName(requested: string): string {
  const [name, setName] = useState(requested);
  useEffect(() => {
    const actual = claimFormName(requested);
    setName(actual);
    return () => releaseFormName(actual);
  }, [requested]);
  return name;
}

/**
 * A form drawn from a stored schema: types string, number, integer, boolean, object, array, HTML
 * and COMP, each field's `ui` options and `rules`, the form's `globalConfig`. Each edit validates
 * the field (and its linked fields); a failed validation scrolls to the first visible error.
 */
export function DynamicForm(props: DynamicFormProps) {
  const { root, error } = useSchema(props.schema);
  if (!root) return <Alert type="error" showIcon title={error} role="alert" />;
  return <FormBody {...props} root={root} />;
}

function FormBody({
  root,
  value,
  name,
  onChange,
  onSubmit,
  widgets,
  onEditSchema,
  disabled,
  ref,
}: DynamicFormProps & { root: RootSchema }) {
  const formCheckUrls = useFormCheckUrls();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new schema starts a new form; the value reloads below
  const store = useMemo(() => new FormStore(root, formCheckUrls, value), [root, formCheckUrls]);
  // A stored ajax rule that may not run is said at once, not only when its field is checked.
  const refusedRule = useMemo(() => ajaxRuleIssue(root, formCheckUrls), [root, formCheckUrls]);
  const formName = useFormName(name ?? DEFAULT_FORM_NAME);
  const [modal, holder] = useLocalDialogCalls();
  const element = useRef<HTMLFormElement>(null);
  const handlers = useRef({ onChange, onSubmit });
  handlers.current = { onChange, onSubmit };

  useEffect(() => () => store.dispose(), [store]);
  useEffect(() => {
    if (value !== undefined && !same(value, store.value)) store.load(value);
  }, [value, store]);
  useEffect(() => store.subscribeAny(() => handlers.current.onChange?.(store.value, { dirty: store.dirty })), [store]);

  const validate = async () => {
    const ok = await store.validateAll();
    const scroll = store.config.scrollToFailField;
    if (!ok && scroll.enabled) {
      await new Promise((r) => setTimeout(r, 0));
      const target = element.current && firstVisibleError(element.current);
      if (target) {
        await scrollToField(target, scroll);
        target.querySelector<HTMLElement>('input, textarea, [tabindex]')?.focus({ preventScroll: true });
      }
    }
    return ok;
  };
  useImperativeHandle(ref, () => ({
    validate,
    reset: () => store.reset(),
    getValue: () => store.value,
    isDirty: () => store.dirty,
    setValue: (path, v) => store.set(path, v),
  }));

  const context = useMemo<FormContextValue>(
    () => ({
      store,
      name: formName,
      widgets: widgets ?? {},
      modal,
      disabled: Boolean(disabled),
      Field,
      NestedForm: DynamicForm,
      ...(onEditSchema ? { onEditSchema } : {}),
    }),
    [store, formName, widgets, modal, disabled, onEditSchema],
  );
  return (
    <FormContext.Provider value={context}>
      <form
        ref={element}
        name={formName}
        id={formName}
        noValidate
        data-language={formLanguage()}
        className={['gdb-dynamic-form', store.config.style.formCls].filter(Boolean).join(' ')}
        onSubmit={(e) => {
          e.preventDefault();
          void validate().then((ok) => {
            if (ok) handlers.current.onSubmit?.(store.value);
          });
        }}
      >
        {refusedRule ? (
          <Alert type="warning" showIcon role="alert" title={FORM_CHECK_MESSAGES.notRun(refusedRule.message)} />
        ) : null}
        <Form component={false} layout="vertical">
          <Field field={root} path={[]} />
        </Form>
      </form>
      {holder}
    </FormContext.Provider>
  );
}
