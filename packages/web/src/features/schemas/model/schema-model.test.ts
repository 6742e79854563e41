import { at, DEALER } from '@gdb/shared/schemas/schema-fixtures';
import { jsonToTree, treeToJson } from '@gdb/shared/schemas/schema-json';
import { findNode } from '@gdb/shared/schemas/schema-nodes';
import { describe, expect, it } from 'vitest';
import { appendNode, changeKind, isRequired, moveNode, removeNode, renameNode, setOption, setRequired } from './schema-edit.ts';
import { canRedo, canUndo, currentTree, isDirty, markSaved, record, redo, startHistory, undo } from './schema-history.ts';

function ok(result: ReturnType<typeof appendNode>) {
  if (!result.ok) throw new Error(result.error);
  return result;
}

describe('edits', () => {
  it('appends only what the rules allow, with a free name', () => {
    const tree = jsonToTree({ type: 'object', properties: { newProperty: { type: 'string' } } }, 'M');
    const props = at(tree, 'schema', 'properties');
    const added = ok(appendNode(tree, props.id, 'integer'));
    expect(findNode(added.root, added.selected ?? '')?.name).toBe('newProperty1');
    expect(appendNode(tree, at(tree, 'schema', 'properties', 'newProperty').id, 'object')).toEqual({
      ok: false,
      error: 'A string node cannot take a object node here',
    });
    expect(appendNode(tree, props.id, 'string', 'newProperty')).toEqual({
      ok: false,
      error: 'The name newProperty is already used here',
    });
  });

  it('renames a property and its required entry and dependency, sharing untouched subtrees', () => {
    const tree = jsonToTree(DEALER, 'Dealer');
    const renamed = ok(renameNode(tree, at(tree, 'schema', 'properties', 'name').id, 'label'));
    const json = treeToJson(renamed.root) as typeof DEALER;
    expect(Object.keys(json.properties)).toContain('label');
    expect(json.required).toEqual(['dealerCode', 'label']);
    expect(json.dependencies).toEqual({ label: ['dealerCode'] });
    expect(at(renamed.root, 'definitions')).toBe(at(tree, 'definitions'));
    expect(at(renamed.root, 'schema', 'properties', 'tags')).toBe(at(tree, 'schema', 'properties', 'tags'));
    expect(renameNode(tree, at(tree, 'schema', 'properties', 'name').id, 'dealerCode').ok).toBe(false);
    expect(renameNode(tree, at(tree, 'schema', 'properties').id, 'x')).toEqual({
      ok: false,
      error: 'A properties node keeps its name',
    });
  });

  it('removes a property from required; removing properties takes required and dependencies; never the root', () => {
    const tree = jsonToTree(DEALER, 'Dealer');
    const less = ok(removeNode(tree, at(tree, 'schema', 'properties', 'dealerCode').id));
    expect((treeToJson(less.root) as typeof DEALER).required).toEqual(['name']);
    const bare = ok(removeNode(tree, at(tree, 'schema', 'properties').id));
    expect(at(bare.root, 'schema').children).toEqual([]);
    expect(removeNode(tree, tree.id).ok).toBe(false);
    expect(moveNode(tree, tree.id, 1).ok).toBe(false);
  });

  it('moves a node among its siblings', () => {
    const tree = jsonToTree(DEALER, 'Dealer');
    const moved = ok(moveNode(tree, at(tree, 'schema', 'properties', 'name').id, -1));
    expect(
      at(moved.root, 'schema', 'properties')
        .children.map((c) => c.name)
        .slice(0, 2),
    ).toEqual(['name', 'dealerCode']);
    expect(moveNode(tree, at(tree, 'schema', 'properties', 'dealerCode').id, -1).ok).toBe(false);
  });

  it('sets options and changes a type, keeping what the new type has', () => {
    const tree = jsonToTree(DEALER, 'Dealer');
    const name = at(tree, 'schema', 'properties', 'name');
    const titled = ok(setOption(tree, name.id, 'title', 'Name'));
    const changed = ok(changeKind(titled.root, name.id, 'integer'));
    expect((treeToJson(changed.root) as { properties: Record<string, unknown> }).properties.name).toEqual({
      type: 'integer',
      title: 'Name',
    });
    const toArray = ok(changeKind(tree, name.id, 'array'));
    expect((treeToJson(toArray.root) as { properties: Record<string, unknown> }).properties.name).toEqual({
      type: 'array',
      items: { type: 'string' },
    });
  });
});

describe('history', () => {
  it('undoes, redoes, drops undone snapshots on a new edit, and knows unsaved changes', () => {
    const a = jsonToTree({ type: 'object' }, 'A');
    const b = jsonToTree({ type: 'string' }, 'A');
    const c = jsonToTree({ type: 'integer' }, 'A');
    let h = startHistory(a);
    expect(isDirty(h)).toBe(false);
    h = record(h, b);
    expect(isDirty(h)).toBe(true);
    expect(canUndo(h)).toBe(true);
    h = undo(h);
    expect(currentTree(h)).toBe(a);
    expect(isDirty(h)).toBe(false);
    expect(canRedo(h)).toBe(true);
    h = redo(h);
    expect(currentTree(h)).toBe(b);
    h = markSaved(undo(h));
    h = record(h, c);
    expect(h.entries).toEqual([a, c]);
    expect(canRedo(h)).toBe(false);
    expect(isDirty(h)).toBe(true);
    expect(isDirty(undo(h))).toBe(false);
    expect(isDirty(startHistory(a, false))).toBe(true);
  });
});

describe('required properties', () => {
  it('adds and removes a property from its object required list', () => {
    const tree = jsonToTree({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } }, 'M');
    const b = at(tree, 'schema', 'properties', 'b');
    const made = ok(setRequired(tree, b.id, true));
    expect(treeToJson(made.root)).toMatchObject({ required: ['b'] });
    expect(isRequired(made.root, b.id)).toBe(true);
    const a = at(made.root, 'schema', 'properties', 'a');
    const both = ok(setRequired(made.root, a.id, true));
    expect(treeToJson(both.root)).toMatchObject({ required: ['b', 'a'] });
    const none = ok(setRequired(ok(setRequired(both.root, a.id, false)).root, b.id, false));
    expect(treeToJson(none.root)).not.toHaveProperty('required');
    expect(setRequired(tree, at(tree, 'schema').id, true).ok).toBe(false);
  });
});
