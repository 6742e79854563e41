// The schema editor's tree with a data model of 2,000 properties nested 5 deep, as the page shows
// it once the data model is read: opening it (the JSON schema made into the node tree, then drawn),
// and renaming one property deep down (the edit, until the tree shows the new name).
import { useEffect } from 'react';
import { jsonToTree } from '../../packages/shared/src/schemas/schema-json.ts';
import { findNode, type SchemaNode } from '../../packages/shared/src/schemas/schema-nodes.ts';
import { renameNode } from '../../packages/web/src/features/schemas/model/schema-edit.ts';
import { PropertyInspector } from '../../packages/web/src/features/schemas/PropertyInspector.tsx';
import { SchemaTree } from '../../packages/web/src/features/schemas/SchemaTree.tsx';
import { type SchemaEditorState, useSchemaEditor } from '../../packages/web/src/features/schemas/useSchemaEditor.ts';
import { exposeBench, mount, nextPaint, timeUntilPaint, unmount } from '../browser/page-kit.ts';

const PROPERTIES = 2000;
const BRANCHING = 4;
const DEPTH = 5;

/**
 * Objects 4 wide on 4 levels (340 object properties), the 1,660 other properties (strings,
 * integers, numbers, booleans) spread over the 256 objects of the 4th level: 2,000 properties,
 * the deepest at the 5th level.
 */
function bigSchema(): { schema: Record<string, unknown>; deepest: string[] } {
  const objects: Record<string, unknown>[][] = [];
  let made = 0;
  const level = (depth: number): Record<string, unknown> => {
    const properties: Record<string, unknown> = {};
    const node = { type: 'object', properties };
    if (depth < DEPTH - 1) {
      for (let i = 0; i < BRANCHING; i++) {
        made += 1;
        properties[`object_${depth}_${i}`] = level(depth + 1);
      }
    } else {
      objects[depth] = [...(objects[depth] ?? []), node];
    }
    return node;
  };
  const schema = level(0);
  const deepest = objects[DEPTH - 1] ?? [];
  const types = ['string', 'integer', 'number', 'boolean'];
  let n = 0;
  const names: string[] = [];
  for (let i = 0; made < PROPERTIES; i = (i + 1) % deepest.length) {
    const name = `field_${n}`;
    (deepest[i]?.properties as Record<string, unknown>)[name] = { type: types[n % types.length], title: `Field ${n}` };
    names.push(name);
    n += 1;
    made += 1;
  }
  return { schema, deepest: names };
}

const { schema, deepest } = bigSchema();
let editor: SchemaEditorState | null = null;
let renames = 0;

function Editor({ root }: { root: SchemaNode }) {
  const state = useSchemaEditor(root);
  useEffect(() => {
    editor = state;
  });
  return (
    <div style={{ display: 'flex', gap: 12 }}>
      <div style={{ flex: 1 }}>
        <SchemaTree
          root={state.tree}
          selected={state.selected}
          onSelect={state.select}
          menuOf={() => []}
          onMenu={() => {}}
          height={800}
        />
      </div>
      <div style={{ width: 500 }}>
        <PropertyInspector root={state.tree} selected={state.selected} readOnly={false} apply={state.apply} />
      </div>
    </div>
  );
}

/** The id of a property by its name (the first found). */
function idOf(root: SchemaNode, name: string): string {
  const walk = (node: SchemaNode): string | null => {
    if (node.name === name) return node.id;
    for (const child of node.children) {
      const found = walk(child);
      if (found) return found;
    }
    return null;
  };
  const id = walk(root);
  if (!id) throw new Error(`No property ${name}`);
  return id;
}

const rows = () => document.querySelectorAll('.gdb-schema-node').length;

exposeBench({
  /** Opening the data model: the JSON schema made into a tree and drawn, until painted. */
  open: async () => {
    unmount();
    editor = null;
    await nextPaint();
    const ms = await timeUntilPaint(() => mount(<Editor root={jsonToTree(schema, 'Big')} />));
    if (rows() === 0) throw new Error('The tree drew no row');
    return ms;
  },
  /** Renaming one property of the 5th level shown in the tree (selected, so the inspector shows it too), until painted. */
  rename: async () => {
    if (!editor) throw new Error('Open the data model first');
    const target = deepest[0] ?? '';
    const current = editor.tree;
    const id = idOf(current, renames === 0 ? target : `${target}_${renames}`);
    editor.select(id);
    await nextPaint();
    renames += 1;
    const next = `${target}_${renames}`;
    const state = editor;
    const ms = await timeUntilPaint(() => {
      const error = state.apply((root) => renameNode(root, id, next));
      if (error) throw new Error(error);
    });
    if (findNode(editor.tree, id)?.name !== next) throw new Error('The rename did not apply');
    if (![...document.querySelectorAll('.gdb-schema-node-name')].some((e) => e.textContent === next))
      throw new Error('The tree does not show the new name');
    return ms;
  },
});
