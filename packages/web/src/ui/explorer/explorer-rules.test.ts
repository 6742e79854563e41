import { describe, expect, it } from 'vitest';
import { folder, leaf, sampleTree } from './explorer-fixtures.ts';
import {
  canDrag,
  deleteQuestion,
  dropDestination,
  type ExplorerUser,
  menuActions,
  menuLabel,
  moveTarget,
  tagExpression,
} from './explorer-rules.ts';
import { filterTree, indexTree, nodeOfVersion } from './tree-model.ts';

const manager: ExplorerUser = { roles: ['manager'], tags: [] };
const managerT1: ExplorerUser = { roles: ['manager'], tags: ['t1'] };
const admin: ExplorerUser = { roles: ['admin'], tags: [] };
const superAdmin: ExplorerUser = { roles: ['super-admin'], tags: [] };
const user: ExplorerUser = { roles: ['user'], tags: [] };

const index = indexTree(sampleTree());
const node = (id: string) => {
  const n = index.byId.get(id);
  if (!n) throw new Error(id);
  return n;
};
const withNew = { canCreateDocument: true };
const withoutNew = { canCreateDocument: false };

describe('node menu', () => {
  it('offers a manager every folder entry on a folder they may write, but no rename or delete on the root', () => {
    // Moving down would go into Alpha, which the badges close to this manager.
    expect(menuActions(manager, index, node('beta'), withNew)).toEqual([
      'newDocument',
      'newFolder',
      'renameFolder',
      'deleteFolder',
    ]);
    expect(menuActions(manager, index, node('root'), withNew)).toEqual(['newDocument', 'newFolder']);
    expect(menuActions(superAdmin, index, node('root'), withNew)).toEqual(['newDocument', 'newFolder', 'manageBadges']);
  });

  it('still shows the menu of a folder the badges close, without the entries that need write', () => {
    expect(menuActions(manager, index, node('alpha'), withNew)).toEqual([]);
    expect(menuActions(managerT1, index, node('alpha'), withNew)).toEqual([
      'newDocument',
      'newFolder',
      'renameFolder',
      'deleteFolder',
      'moveDown',
    ]);
  });

  it('offers Choose version and New on a leaf with several versions, even without write', () => {
    expect(menuActions(manager, index, node('orders'), withNew)).toEqual(['chooseVersion', 'newDocument']);
    expect(menuActions(managerT1, index, node('orders'), withNew)).toEqual([
      'chooseVersion',
      'newDocument',
      'deleteDocument',
      'moveUp',
    ]);
  });

  it('shows no menu on a one-version leaf without write, and Delete {kind} only with write', () => {
    expect(menuActions(manager, index, node('secret'), withNew)).toEqual([]);
    expect(menuActions(manager, index, node('prices'), withNew)).toEqual(['newDocument', 'deleteDocument', 'moveDown']);
    expect(menuActions({ roles: ['manager'], tags: ['t9'] }, index, node('secret'), withNew)).toContain('deleteDocument');
  });

  it('leaves New {kind} out when the page creates no document', () => {
    expect(menuActions(manager, index, node('beta'), withoutNew)).not.toContain('newDocument');
  });

  it('gives Manage badges to admins and super-admins only', () => {
    expect(menuActions(admin, index, node('beta'), withoutNew)).toEqual(['newFolder', 'manageBadges']);
    expect(menuActions(superAdmin, index, node('secret'), withoutNew)).toContain('manageBadges');
    expect(menuActions(manager, index, node('beta'), withoutNew)).not.toContain('manageBadges');
  });

  it('lets a user create folders in an open folder but not rename, delete or move them', () => {
    expect(menuActions(user, index, node('beta'), withoutNew)).toEqual(['newFolder']);
  });

  it('says the menu entries and the confirmations word for word', () => {
    expect(menuLabel('newDocument', 'schema')).toBe('New schema');
    expect(menuLabel('deleteDocument', 'component')).toBe('Delete component');
    expect(deleteQuestion('schema', node('beta'))).toBe('Delete folder Beta ?');
    expect(deleteQuestion('schema', node('prices'))).toBe('Delete schema [Prices] ?');
    expect(deleteQuestion('pipeline', leaf('p', 'Country A'))).toBe('Delete pipeline [Country A] and all its child pipeline ?');
  });
});

describe('nodes the server says the caller may not change', () => {
  /** The sample tree with Beta (a folder) and Prices (a document) read-only for the caller, and Secret open to them. */
  const told = indexTree(sampleTree());
  const at = (id: string) => {
    const n = told.byId.get(id);
    if (!n) throw new Error(id);
    return n;
  };
  at('beta').write_access = false;
  at('prices').write_access = false;
  at('secret').write_access = true;

  it('offer no rename, delete, new folder or move, and are not dragged, even to a super-admin', () => {
    expect(menuActions(manager, told, at('beta'), withNew)).toEqual([]);
    expect(menuActions(superAdmin, told, at('beta'), withNew)).toEqual(['manageBadges']);
    expect(menuActions(manager, told, at('prices'), withNew)).toEqual([]);
    // A one-version document without write has no menu at all.
    expect(menuActions(superAdmin, told, at('prices'), withNew)).toEqual([]);
    expect([canDrag(manager, told, at('beta')), canDrag(superAdmin, told, at('prices'))]).toEqual([false, false]);
    expect(dropDestination(manager, told, at('orders'), at('beta'), 'inside')).toBeNull();
  });

  it("follow the server's word over the badges the page holds", () => {
    expect(menuActions(manager, told, at('secret'), withNew)).toContain('deleteDocument');
    expect(canDrag(manager, told, at('secret'))).toBe(true);
  });
});

describe('drag and drop', () => {
  it('drops inside a folder into that folder', () => {
    expect(dropDestination(manager, index, node('prices'), node('beta'), 'inside')?.value).toBe('beta');
    expect(dropDestination(manager, index, node('prices'), node('gamma'), 'inside')?.value).toBe('gamma');
  });

  it("drops on or beside a leaf into the leaf's folder, and refuses inside a leaf", () => {
    expect(dropDestination(managerT1, index, node('prices'), node('orders'), 'before')?.value).toBe('alpha');
    expect(dropDestination(managerT1, index, node('prices'), node('orders'), 'after')?.value).toBe('alpha');
    expect(dropDestination(managerT1, index, node('prices'), node('orders'), 'inside')).toBeNull();
  });

  it("drops before or after a folder into that folder's parent", () => {
    expect(dropDestination(manager, index, node('gamma'), node('beta'), 'before')?.value).toBe('root');
    expect(dropDestination(manager, index, node('gamma'), node('alpha'), 'after')?.value).toBe('root');
  });

  it('refuses a drop into a folder without write on it, or of an item without write', () => {
    expect(dropDestination(manager, index, node('prices'), node('alpha'), 'inside')).toBeNull();
    expect(dropDestination(managerT1, index, node('prices'), node('alpha'), 'inside')?.value).toBe('alpha');
    expect(dropDestination(manager, index, node('secret'), node('beta'), 'inside')).toBeNull();
  });

  it('never drags a root; folders only for managers and super-admins; never into itself or below it', () => {
    expect(canDrag(superAdmin, index, node('root'))).toBe(false);
    expect(canDrag(manager, index, node('beta'))).toBe(true);
    expect(canDrag(admin, index, node('beta'))).toBe(false);
    expect(canDrag(admin, index, node('prices'))).toBe(true);
    expect(dropDestination(manager, index, node('beta'), node('gamma'), 'inside')).toBeNull();
    expect(dropDestination(manager, index, node('beta'), node('beta'), 'inside')).toBeNull();
    expect(dropDestination(manager, index, node('beta'), node('root'), 'before')).toBeNull();
  });

  it('refuses a drop that leaves the item where it is', () => {
    expect(dropDestination(manager, index, node('prices'), node('root'), 'inside')).toBeNull();
    expect(dropDestination(manager, index, node('prices'), node('secret'), 'after')).toBeNull();
  });

  it('moves up to the folder above, and down into the nearest folder beside it', () => {
    expect(moveTarget(index, node('gamma'), 'up')?.value).toBe('root');
    expect(moveTarget(index, node('prices'), 'down')?.value).toBe('beta');
    expect(moveTarget(index, node('alpha'), 'down')?.value).toBe('beta');
    expect(moveTarget(index, node('beta'), 'down')?.value).toBe('alpha');
    expect(moveTarget(index, node('prices'), 'up')).toBeNull();
  });
});

describe('filter', () => {
  const labels = (nodes: readonly { label: string; children: readonly unknown[] }[]): unknown[] =>
    nodes.map((n) => (n.children.length ? [n.label, labels(n.children as typeof nodes)] : n.label));

  it('keeps the matching labels, ignoring case, with the folders above them', () => {
    expect(labels(filterTree(sampleTree(), 'ORD'))).toEqual([['Data models', [['Alpha', ['Orders']]]]]);
    expect(labels(filterTree(sampleTree(), 'gam'))).toEqual([['Data models', [['Beta', ['Gamma']]]]]);
    expect(filterTree(sampleTree(), 'nothing like it')).toEqual([]);
  });

  it('answers the same tree when the filter is empty', () => {
    const tree = sampleTree();
    expect(filterTree(tree, '  ')).toBe(tree);
  });

  it('keeps a matching folder and leaves out the documents the page does not offer', () => {
    expect(labels(filterTree(sampleTree(), 'beta'))).toEqual([['Data models', ['Beta']]]);
    const kept = filterTree(sampleTree(), '', (n) => n.label !== 'Prices');
    expect(labels(kept)).toEqual([['Data models', [['Alpha', ['Orders']], ['Beta', ['Gamma']], 'Secret']]]);
  });

  it('finds the leaf of an older version', () => {
    expect(nodeOfVersion(index, 'orders-v1')?.value).toBe('orders');
    expect(nodeOfVersion(indexTree([folder('r', 'R')]), 'x')).toBeUndefined();
  });
});

describe('badge expressions', () => {
  it('joins groups by | and the badges of a group by &', () => {
    const names = new Map([
      ['a', 'Paris'],
      ['b', 'Lyon'],
    ]);
    expect(tagExpression([['a', 'b'], ['c']], names)).toBe('(Paris & Lyon) | c');
    expect(tagExpression([['a', 'b']], names)).toBe('Paris & Lyon');
    expect(tagExpression([[]], names)).toBe('');
  });
});
