import { Button, Space, Table } from 'antd';
import { useRef, useState } from 'react';
import { askConfirmation } from '../dialog/calls.ts';
import { useFieldResult, useFieldValue, useForm } from './context.ts';
import { fieldId, randomId } from './form-names.ts';
import type { FieldSchema } from './schema.ts';
import { type Path, pathKey } from './store.ts';

const ARRAY_TEXTS = {
  add: 'Add',
  deleteAll: 'Delete All',
  del: 'Del',
  up: 'Up',
  down: 'Down',
  fold: 'Fold',
  expand: 'Expand',
  confirmDelete: 'Are you sure to delete this item?',
  confirmDeleteAll: 'Are you sure to delete all?',
  action: 'Action',
} as const;
/** Width of the Action column of the table layout. */
const ACTION_COLUMN_WIDTH = 130;

interface ArrayFieldProps {
  field: FieldSchema;
  path: Path;
  disabled: boolean;
  readOnly: boolean;
}

/** Stable keys for the items, moved with them, so an item keeps its state (folded, typed text) when it moves. */
function useItemKeys(length: number) {
  const keys = useRef<string[]>([]);
  while (keys.current.length < length) keys.current.push(randomId(8));
  if (keys.current.length > length) keys.current.length = length;
  return keys;
}

interface ItemActionsProps {
  i: number;
  /** The item's name in the buttons' labels. */
  label: string;
  count: number;
  config: FieldSchema['ui']['widgetConfig'];
  onRemove: () => void;
  onMove: (by: -1 | 1) => void;
}

/** An item's Del, Up and Down (each unless the widget's config turns it off). */
function ItemActions({ i, label, count, config, onRemove, onMove }: ItemActionsProps) {
  return (
    <Space size={0}>
      {config.disableDel ? null : (
        <Button size="small" type="link" danger aria-label={`${ARRAY_TEXTS.del} ${label}`} onClick={onRemove}>
          {ARRAY_TEXTS.del}
        </Button>
      )}
      {config.disableReorder ? null : (
        <>
          <Button
            size="small"
            type="link"
            aria-label={`${ARRAY_TEXTS.up} ${label}`}
            disabled={i === 0}
            onClick={() => onMove(-1)}
          >
            {ARRAY_TEXTS.up}
          </Button>
          <Button
            size="small"
            type="link"
            aria-label={`${ARRAY_TEXTS.down} ${label}`}
            disabled={i === count - 1}
            onClick={() => onMove(1)}
          >
            {ARRAY_TEXTS.down}
          </Button>
        </>
      )}
    </Space>
  );
}

/** An array's edits (add, delete one or all, move an item), asking before a delete unless the config says not to. */
function useArrayEdits(path: Path, list: unknown[], config: FieldSchema['ui']['widgetConfig']) {
  const { store, modal } = useForm();
  const keys = useItemKeys(list.length);
  const confirmDelete = config.requiredDelConfirm !== false;

  const write = (next: unknown[], reorder: (k: string[]) => string[]) => {
    keys.current = reorder(keys.current);
    store.clearResultsUnder(path);
    store.set(path, next);
  };
  const add = () => write([...list, store.newItem(path)], (k) => [...k, randomId(8)]);
  const remove = async (i: number) => {
    if (confirmDelete && !(await askConfirmation(modal, String(config.delConfirmText ?? ARRAY_TEXTS.confirmDelete)))) return;
    write(
      list.filter((_, j) => j !== i),
      (k) => k.filter((_, j) => j !== i),
    );
  };
  const removeAll = async () => {
    if (confirmDelete && !(await askConfirmation(modal, String(config.delAllConfirmText ?? ARRAY_TEXTS.confirmDeleteAll))))
      return;
    write([], () => []);
  };
  const move = (i: number, by: -1 | 1) => {
    const j = i + by;
    if (j < 0 || j >= list.length) return;
    const swap = <T,>(l: T[]) => {
      const c = [...l];
      [c[i], c[j]] = [c[j] as T, c[i] as T];
      return c;
    };
    write(swap(list), swap);
  };

  return { keys, add, remove, removeAll, move };
}

/**
 * An array: its items one under the other (widget `array`) or as the rows of a table (widget
 * `array-table`), with Add, Delete All, and per item Del, Up and Down; deleting asks first.
 */
export function ArrayField({ field, path, disabled, readOnly }: ArrayFieldProps) {
  const { store, Field, name } = useForm();
  const raw = useFieldValue(store, path);
  const result = useFieldResult(store, path);
  const list = Array.isArray(raw) ? raw : [];
  const config = field.ui.widgetConfig;
  const [folded, setFolded] = useState(Boolean(config.collapsed));
  const [foldedItems, setFoldedItems] = useState<ReadonlySet<string>>(new Set());
  const locked = disabled || readOnly;
  const items = field.items as FieldSchema;

  const { keys, add, remove, removeAll, move } = useArrayEdits(path, list, config);
  const toggleItem = (key: string) =>
    setFoldedItems((s) => {
      const next = new Set(s);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const itemActions = (i: number, label: string) =>
    locked ? null : (
      <ItemActions
        i={i}
        label={label}
        count={list.length}
        config={config}
        onRemove={() => void remove(i)}
        onMove={(by) => move(i, by)}
      />
    );

  const title = field.ui.legend || field.ui.label;
  const itemLabel = (i: number) => `${title} ${i + 1}`;
  // An item that is one input is labelled by its title; an item of several fields is a group named by it.
  const leafItems = !['object', 'array', 'array-table'].includes(items.ui.widget);
  const table = field.ui.widget === 'array-table';
  return (
    <fieldset className="gdb-form-array" data-field-path={pathKey(path)}>
      <legend>
        {title}
        {config.disableCollapse ? null : (
          <Button size="small" type="link" aria-expanded={!folded} onClick={() => setFolded((f) => !f)}>
            {folded ? ARRAY_TEXTS.expand : ARRAY_TEXTS.fold}
          </Button>
        )}
      </legend>
      {field.ui.description ? <div className="gdb-form-description">{field.ui.description}</div> : null}
      {folded ? null : table ? (
        <ArrayTable
          field={items}
          path={path}
          list={list}
          keys={keys.current}
          disabled={disabled}
          readOnly={readOnly}
          actions={itemActions}
        />
      ) : (
        list.map((_, i) => {
          const key = keys.current[i] as string;
          const itemFolded = foldedItems.has(key);
          return (
            // biome-ignore lint/a11y/useSemanticElements: a group of the item's fields, labelled by its number
            <div key={key} className="gdb-form-array-item" role="group" aria-label={itemLabel(i)}>
              <div className="gdb-form-array-item-bar">
                {leafItems ? (
                  <label className="gdb-form-array-item-title" htmlFor={fieldId(name, pathKey([...path, i]))}>
                    {itemLabel(i)}
                  </label>
                ) : (
                  <span className="gdb-form-array-item-title">{itemLabel(i)}</span>
                )}
                {config.disableCollapse ? null : (
                  <Button
                    size="small"
                    type="link"
                    aria-expanded={!itemFolded}
                    aria-label={`${itemFolded ? ARRAY_TEXTS.expand : ARRAY_TEXTS.fold} ${itemLabel(i)}`}
                    onClick={() => toggleItem(key)}
                  >
                    {itemFolded ? ARRAY_TEXTS.expand : ARRAY_TEXTS.fold}
                  </Button>
                )}
                {itemActions(i, itemLabel(i))}
              </div>
              {itemFolded ? null : (
                <Field field={items} path={[...path, i]} inheritedDisabled={disabled} inheritedReadOnly={readOnly} bare />
              )}
            </div>
          );
        })
      )}
      {locked ? null : (
        <Space className="gdb-form-array-bar">
          {config.disableAdd ? null : (
            <Button size="small" onClick={add} aria-label={`${ARRAY_TEXTS.add} ${title}`}>
              {String(config.addTxt ?? ARRAY_TEXTS.add)}
            </Button>
          )}
          {config.disableDelAll || list.length === 0 ? null : (
            <Button size="small" danger onClick={() => void removeAll()} aria-label={`${ARRAY_TEXTS.deleteAll} ${title}`}>
              {String(config.delAllTxt ?? ARRAY_TEXTS.deleteAll)}
            </Button>
          )}
        </Space>
      )}
      {result.message ? (
        <div className="gdb-form-group-message" data-field-status={result.status} role="alert">
          {result.message}
        </div>
      ) : null}
    </fieldset>
  );
}

interface TableProps {
  field: FieldSchema;
  path: Path;
  list: unknown[];
  keys: string[];
  disabled: boolean;
  readOnly: boolean;
  actions: (i: number, label: string) => React.ReactNode;
}

function ArrayTable({ field, path, list, keys, disabled, readOnly, actions }: TableProps) {
  const { Field } = useForm();
  const object = field.type === 'object' && field.properties;
  const cell = (child: FieldSchema, at: Path) => (
    <Field field={child} path={at} inheritedDisabled={disabled} inheritedReadOnly={readOnly} bare />
  );
  const columns = [
    ...(object
      ? Object.entries(field.properties ?? {}).map(([key, child]) => ({
          key,
          title: child.ui.label,
          render: (_: unknown, row: { i: number }) => cell(child, [...path, row.i, key]),
        }))
      : [{ key: 'value', title: field.ui.label, render: (_: unknown, row: { i: number }) => cell(field, [...path, row.i]) }]),
    {
      key: 'action',
      title: ARRAY_TEXTS.action,
      width: ACTION_COLUMN_WIDTH,
      render: (_: unknown, row: { i: number }) => actions(row.i, `row ${row.i + 1}`),
    },
  ];
  return (
    <Table
      size="small"
      pagination={false}
      rowKey="key"
      columns={columns}
      dataSource={list.map((_, i) => ({ key: keys[i] as string, i }))}
    />
  );
}
