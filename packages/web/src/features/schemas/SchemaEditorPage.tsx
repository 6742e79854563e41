import { findWithAncestors, type NodeKind, type SchemaNode } from '@gdb/shared/schemas/schema-nodes';
import { Alert, App, Empty, type MenuProps, Spin, Tabs } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { Explorer } from '../../ui/explorer/index.ts';
import { useEditorHeight } from '../../ui/useEditorHeight.ts';
import { VersionBar } from '../../ui/versions/VersionBar.tsx';
import { JsonView } from './JsonView.tsx';
import { appendNode, moveNode, removeNode } from './model/schema-edit.ts';
import { type NodeAction, nodeActions } from './node-menu.ts';
import { PropertyInspector } from './PropertyInspector.tsx';
import { type SchemaDialog, SchemaDialogs } from './SchemaDialogs.tsx';
import { SchemaToolbar, SchemaToolbox } from './SchemaToolbox.tsx';
import { SchemaTree } from './SchemaTree.tsx';
import { SCHEMA_TEXTS } from './schema-texts.ts';
import { type SchemaDocumentState, useSchemaDocument } from './useSchemaDocument.ts';
import './schemas.css';

const toMenu = (actions: NodeAction[]): MenuProps['items'] =>
  actions.map((a) =>
    a.children
      ? { key: a.key, label: a.label, disabled: a.disabled, children: a.children.map((c) => ({ key: c.key, label: c.label })) }
      : { key: a.key, label: a.label, disabled: a.disabled, danger: a.key === 'remove' },
  );

/** The schema editor is the window's height less this many pixels. */
const EDITOR_OFFSET = 65;

/** Data Models (/manage/schemas, route SchemaEditor): the data models on the left, the open one's tree editor, inspector and version bar. */
export function SchemaEditorPage() {
  const doc = useSchemaDocument();
  const { message } = App.useApp();
  const height = useEditorHeight(EDITOR_OFFSET);
  const [dialog, setDialog] = useState<SchemaDialog | null>(null);
  const importInput = useRef<HTMLInputElement>(null);
  const severalInput = useRef<HTMLInputElement>(null);
  const { editor, current, readOnly } = doc;
  const tree = editor.tree;
  const canSave = doc.open && !readOnly;

  const say = (error: string | null) => {
    if (error) void message.error(error);
  };
  const onAction = (key: string, node: SchemaNode) => {
    if (key.startsWith('append:')) return say(editor.apply((r) => appendNode(r, node.id, key.slice(7) as NodeKind)));
    switch (key) {
      case 'rename':
        return setDialog({ kind: 'rename', node });
      case 'save':
        return void doc.save();
      case 'selectRef':
        return setDialog({ kind: 'ref', node });
      case 'selectProperty':
        return setDialog({ kind: 'property', node });
      case 'remove':
        return say(editor.apply((r) => removeNode(r, node.id)));
      case 'up':
        return say(editor.apply((r) => moveNode(r, node.id, -1)));
      case 'down':
        return say(editor.apply((r) => moveNode(r, node.id, 1)));
      default:
        return undefined;
    }
  };
  const actionsOf = (node: SchemaNode) => {
    const found = findWithAncestors(tree, node.id);
    return nodeActions(node, found?.ancestors.at(-1) ?? null, readOnly, canSave);
  };
  const selectedNode = useMemo(
    () => (editor.selected ? (findWithAncestors(tree, editor.selected)?.node ?? null) : null),
    [tree, editor.selected],
  );
  const onNew = async () => {
    if (await doc.mayDrop()) setDialog({ kind: 'new' });
  };
  const treeHeight = Math.max(240, height - 170);
  const close = () => setDialog(null);

  return (
    <div className="gdb-schema-editor" style={{ minHeight: height }}>
      <aside className="gdb-schema-left" aria-label="Data models">
        <Explorer
          kind="schema"
          label="Data models"
          selectedId={current?._id ?? null}
          onOpen={(id) => void doc.openAsked(id)}
          onCreateDocument={doc.createIn}
          height={Math.max(240, height - 120)}
        />
      </aside>
      <section className="gdb-schema-centre" aria-label="Schema editor">
        <SchemaToolbar
          onNew={() => void onNew()}
          onSave={canSave ? () => void doc.save() : null}
          saving={doc.busy === 'save'}
          onUndo={doc.open && !readOnly && editor.canUndo ? editor.undo : null}
          onRedo={doc.open && !readOnly && editor.canRedo ? editor.redo : null}
          onImportSchema={canSave ? () => importInput.current?.click() : null}
          onImportExample={canSave ? () => setDialog({ kind: 'example' }) : null}
          onImportSeveral={() => severalInput.current?.click()}
          onEditJson={doc.open ? () => setDialog({ kind: 'json' }) : null}
          onCopy={doc.open ? () => void doc.copy() : null}
          onPaste={canSave ? () => void doc.paste() : null}
          onDownload={doc.open ? doc.download : null}
          onShowUi={doc.open ? () => setDialog({ kind: 'ui' }) : null}
        />
        <FileInputs doc={doc} importInput={importInput} severalInput={severalInput} />
        {current && (
          <VersionBar
            kind="schema"
            path="/schemas"
            doc={{ ...current, read_only: current.read_only || !current.write_access }}
            dirty={editor.dirty}
            onOpen={doc.openVersion}
            onChanged={() => doc.openVersion(current._id)}
          />
        )}
        {doc.isNew && <Alert type="info" showIcon title={`New schema ${tree.name}, not saved yet`} />}
        {doc.loading && <Spin />}
        {!doc.open && !doc.loading && <Empty description={doc.loadError ? doc.loadError.message : SCHEMA_TEXTS.choose} />}
        {doc.open && <EditorTabs doc={doc} menuOf={(node) => toMenu(actionsOf(node))} onMenu={onAction} height={treeHeight} />}
      </section>
      {doc.open && (
        <section className="gdb-schema-side" aria-label="Node">
          <SchemaToolbox
            nodeLabel={selectedNode ? `${selectedNode.name} (${selectedNode.kind})` : null}
            actions={selectedNode ? actionsOf(selectedNode) : []}
            onAction={(key) => selectedNode && onAction(key, selectedNode)}
          />
          <PropertyInspector root={tree} selected={editor.selected} readOnly={readOnly} apply={editor.apply} />
        </section>
      )}
      <SchemaDialogs dialog={dialog} close={close} doc={doc} say={say} />
    </div>
  );
}

/** The open data model as a tree (with each node's menu) or as JSON. */
function EditorTabs({
  doc,
  menuOf,
  onMenu,
  height,
}: {
  doc: SchemaDocumentState;
  menuOf: (node: SchemaNode) => MenuProps['items'];
  onMenu: (key: string, node: SchemaNode) => void;
  height: number;
}) {
  const { editor } = doc;
  return (
    <Tabs
      items={[
        {
          key: 'tree',
          label: 'Tree',
          children: (
            <SchemaTree
              root={editor.tree}
              selected={editor.selected}
              onSelect={editor.select}
              menuOf={menuOf}
              onMenu={onMenu}
              height={height}
            />
          ),
        },
        { key: 'json', label: 'JSON', children: <JsonView root={editor.tree} height={height} /> },
      ]}
    />
  );
}

/** The hidden file pickers of Import schema (one JSON file) and Import several schemas (JSON files). */
function FileInputs({
  doc,
  importInput,
  severalInput,
}: {
  doc: SchemaDocumentState;
  importInput: React.RefObject<HTMLInputElement | null>;
  severalInput: React.RefObject<HTMLInputElement | null>;
}) {
  return (
    <>
      <input
        ref={importInput}
        type="file"
        accept=".json,application/json"
        className="gdb-sr-only"
        aria-label="Import schema file"
        tabIndex={-1}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void doc.importSchema(file);
        }}
      />
      <input
        ref={severalInput}
        type="file"
        multiple
        accept=".json,application/json"
        className="gdb-sr-only"
        aria-label="Import several schema files"
        tabIndex={-1}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length > 0) void doc.importSeveral(files);
        }}
      />
    </>
  );
}
