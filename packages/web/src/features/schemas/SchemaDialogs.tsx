import { jsonText, treeToJson } from '@gdb/shared/schemas/schema-json';
import { makeNode, type SchemaNode } from '@gdb/shared/schemas/schema-nodes';
import { Drawer } from '../../ui/dialog/Dialog.tsx';
import { NameDialog } from '../../ui/dialog/NameDialog.tsx';
import { FormPreview } from '../../ui/forms/index.ts';
import { EditJsonDialog } from './EditJsonDialog.tsx';
import { ImportExampleDialog } from './ImportExampleDialog.tsx';
import { renameNode, replaceNode, setOption } from './model/schema-edit.ts';
import { SelectPropertyDialog, SelectReferenceDialog, splitRef } from './ReferenceDialogs.tsx';
import { SchemaFormPreview } from './SchemaFormPreview.tsx';
import { SCHEMA_TEXTS } from './schema-texts.ts';
import type { SchemaDocumentState } from './useSchemaDocument.ts';

/** The dialog the schema editor has open. */
export type SchemaDialog =
  | { kind: 'new' }
  | { kind: 'rename'; node: SchemaNode }
  | { kind: 'json' }
  | { kind: 'example' }
  | { kind: 'ref'; node: SchemaNode }
  | { kind: 'property'; node: SchemaNode }
  | { kind: 'ui' };

export interface SchemaDialogsProps {
  dialog: SchemaDialog | null;
  close: () => void;
  doc: SchemaDocumentState;
  /** Shows an edit's refusal, if any. */
  say: (error: string | null) => void;
}

/** The schema editor's dialogs and its Show UI drawer; the one of `dialog` is open. */
export function SchemaDialogs({ dialog, close, doc, say }: SchemaDialogsProps) {
  const { editor, readOnly } = doc;
  const tree = editor.tree;
  return (
    <>
      <NameDialog
        open={dialog?.kind === 'new'}
        title={SCHEMA_TEXTS.newTitle}
        onConfirm={(name) => {
          close();
          doc.startNew(name);
        }}
        onCancel={close}
      />
      <NameDialog
        open={dialog?.kind === 'rename'}
        title={SCHEMA_TEXTS.renameTitle}
        initial={dialog?.kind === 'rename' ? dialog.node.name : ''}
        onConfirm={(name) => {
          if (dialog?.kind !== 'rename') return;
          const error = editor.apply((r) => renameNode(r, dialog.node.id, name));
          if (error) say(error);
          else close();
        }}
        onCancel={close}
      />
      <EditJsonDialog
        open={dialog?.kind === 'json'}
        text={dialog?.kind === 'json' ? jsonText(treeToJson(tree)) : ''}
        readOnly={readOnly}
        onSave={(value) => {
          close();
          void doc.loadJson(value);
        }}
        onClose={close}
      />
      <ImportExampleDialog
        open={dialog?.kind === 'example'}
        busy={doc.busy === 'generate'}
        onGenerate={(file, omit) => void doc.importExample(file, omit).then((done) => done && close())}
        onClose={close}
      />
      <SelectReferenceDialog
        open={dialog?.kind === 'ref'}
        current={
          dialog?.kind === 'ref' && dialog.node.kind === 'ref'
            ? splitRef(String(dialog.node.options.$ref ?? '')).target || null
            : null
        }
        onSelect={(id) => {
          if (dialog?.kind !== 'ref') return;
          close();
          say(editor.apply((r) => replaceNode(r, dialog.node.id, makeNode('ref', dialog.node.name, { $ref: id }))));
        }}
        onClose={close}
      />
      <SelectPropertyDialog
        open={dialog?.kind === 'property'}
        reference={dialog?.kind === 'property' ? String(dialog.node.options.$ref ?? '') : ''}
        onSelect={(ref) => {
          if (dialog?.kind !== 'property') return;
          close();
          say(editor.apply((r) => setOption(r, dialog.node.id, '$ref', ref)));
        }}
        onClose={close}
      />
      <Drawer title="Show UI" size="large" open={dialog?.kind === 'ui'} onClose={close} destroyOnHidden>
        {dialog?.kind === 'ui' && <UiPreview schema={treeToJson(tree)} />}
      </Drawer>
    </>
  );
}

/** The form of an object data model (with Validate and Reset); the field summary of any other root. */
function UiPreview({ schema }: { schema: Record<string, unknown> }) {
  return schema.type === 'object' ? <FormPreview schema={schema} /> : <SchemaFormPreview schema={schema} />;
}
