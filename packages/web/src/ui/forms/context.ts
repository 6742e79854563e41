import { type ComponentType, createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { DialogCalls } from '../dialog/calls.ts';
import type { FieldSchema } from './schema.ts';
import type { FieldResult, FormStore, Path } from './store.ts';

export interface FieldProps {
  field: FieldSchema;
  path: Path;
  /** Disabled or read-only because a parent is. */
  inheritedDisabled?: boolean;
  inheritedReadOnly?: boolean;
  /** Drawn in a table cell or an array item: no legend or label. */
  bare?: boolean;
}

/** A form inside a field (the dialog of a data model reference), given without importing the form. */
interface NestedFormProps {
  schema: unknown;
  value?: unknown;
  name?: string;
  onChange?: (value: Record<string, unknown>) => void;
}

/** What a widget (a built-in one, or a named component of a COMP field) receives. */
export interface WidgetProps {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  field: FieldSchema;
  path: Path;
  disabled: boolean;
  readOnly: boolean;
  placeholder: string;
  config: Record<string, unknown>;
  invalid: boolean;
}
export type Widget = ComponentType<WidgetProps>;

export interface FormContextValue {
  store: FormStore;
  name: string;
  /** Named components for COMP fields and custom widgets. */
  widgets: Record<string, Widget>;
  modal: DialogCalls;
  /** The host's edit action for a data model chosen in a picker. */
  onEditSchema?: (id: string) => void;
  disabled: boolean;
  /** The field renderer, for layouts that draw fields (arrays). */
  Field: ComponentType<FieldProps>;
  NestedForm: ComponentType<NestedFormProps>;
}

export const FormContext = createContext<FormContextValue | null>(null);

export function useForm(): FormContextValue {
  const ctx = useContext(FormContext);
  if (!ctx) throw new Error('A form field must be drawn inside a DynamicForm');
  return ctx;
}

export function useFieldValue(store: FormStore, path: Path): unknown {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is compared by its text
  const subscribe = useCallback((l: () => void) => store.subscribe(path, l), [store, path.join('.')]);
  return useSyncExternalStore(subscribe, () => store.get(path));
}

export function useFieldResult(store: FormStore, path: Path): FieldResult {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is compared by its text
  const subscribe = useCallback((l: () => void) => store.subscribeResult(path, l), [store, path.join('.')]);
  return useSyncExternalStore(subscribe, () => store.result(path));
}

const noSubscribe = () => () => {};
/** Re-renders at every change of the form when `on` (fields whose options are expressions). */
export function useRevision(store: FormStore, on: boolean): number {
  const subscribe = useCallback((l: () => void) => store.subscribeAny(l), [store]);
  return useSyncExternalStore(on ? subscribe : noSubscribe, () => (on ? store.revision : 0));
}
