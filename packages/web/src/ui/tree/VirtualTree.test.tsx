import '../../../test/dom.ts';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { TreeMenu, type TreeMenuAt } from './TreeMenu.tsx';
import { dropPosition, flattenRows } from './tree-rows.ts';
import { useCollapsed } from './useCollapsed.ts';
import { VirtualTree, type VirtualTreeProps } from './VirtualTree.tsx';

interface Item {
  id: string;
  children: Item[];
}

const item = (id: string, children: Item[] = []): Item => ({ id, children });
const keyOf = (node: Item) => node.id;
const childrenOf = (node: Item) => node.children;

/** a (b (c, d), e), f */
const SMALL = [item('a', [item('b', [item('c'), item('d')]), item('e')]), item('f')];

type Hooks = Partial<Pick<VirtualTreeProps<Item>, 'onActivate' | 'onMenu' | 'onKey' | 'drag' | 'selectionFollowsFocus'>>;

function Tree({ roots, height = 280, ...hooks }: { roots: Item[]; height?: number } & Hooks) {
  const { collapsed, toggle } = useCollapsed();
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <VirtualTree
      roots={roots}
      keyOf={keyOf}
      childrenOf={childrenOf}
      label="Items"
      height={height}
      collapsed={collapsed}
      onToggle={(node) => toggle(node.id)}
      selectedKey={selected}
      onSelect={(node) => setSelected(node.id)}
      title={(node) => <span className="name">{node.id}</span>}
      {...hooks}
    />
  );
}

/** The tree with its node menu, as its screens use it. */
function WithMenu({ picked }: { picked: (key: string, node: Item) => void }) {
  const [menu, setMenu] = useState<TreeMenuAt<Item> | null>(null);
  return (
    <>
      <Tree roots={SMALL} onMenu={(node, x, y) => setMenu({ node, x, y })} />
      <TreeMenu
        menu={menu}
        itemsOf={(node) => [{ key: 'rename', label: `Rename ${node.id}` }]}
        onPick={picked}
        onClose={() => setMenu(null)}
      />
    </>
  );
}

const tree = () => screen.getByRole('tree', { name: 'Items' });
const shown = () => screen.queryAllByRole('treeitem').map((el) => el.querySelector('.name')?.textContent);
const row = (id: string) => {
  const found = screen.queryAllByRole('treeitem').find((el) => el.querySelector('.name')?.textContent === id);
  if (!found) throw new Error(`No row ${id}`);
  return found;
};
const active = () => document.getElementById(tree().getAttribute('aria-activedescendant') ?? '')?.textContent;
const selected = () => screen.queryAllByRole('treeitem').find((el) => el.getAttribute('aria-selected') === 'true')?.textContent;
const press = (key: string, extra: Record<string, unknown> = {}) => fireEvent.keyDown(tree(), { key, ...extra });
/** jsdom keeps no scroll position: the tree's is kept on the element so the tree can set and read it. */
const scrollable = () => Object.defineProperty(tree(), 'scrollTop', { value: 0, writable: true });

describe('tree rows', () => {
  it('lists the nodes whose ancestors are open, with their level, parent and place among their siblings', () => {
    const rows = flattenRows(SMALL, { keyOf, childrenOf }, new Set(['b']));
    expect(rows.map((r) => [r.key, r.level, r.parentKey, r.posinset, r.setsize, r.branch, r.collapsed])).toEqual([
      ['a', 1, null, 1, 2, true, false],
      ['b', 2, 'a', 1, 2, true, true],
      ['e', 2, 'a', 2, 2, false, false],
      ['f', 1, null, 2, 2, false, false],
    ]);
  });

  it('drops inside a node that holds others only on the middle half of its row', () => {
    expect([0, 6, 7, 14, 21, 22].map((y) => dropPosition(true, y, 28))).toEqual([
      'before',
      'before',
      'inside',
      'inside',
      'inside',
      'after',
    ]);
    expect([0, 13, 14, 27].map((y) => dropPosition(false, y, 28))).toEqual(['before', 'before', 'after', 'after']);
  });
});

describe('virtual tree', () => {
  it('is a WAI-ARIA tree: levels, places, open branches and the selected row', () => {
    render(<Tree roots={SMALL} />);
    expect(tree().tabIndex).toBe(0);
    expect(shown()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(row('c').getAttribute('aria-level')).toBe('3');
    expect(row('e').getAttribute('aria-posinset')).toBe('2');
    expect(row('e').getAttribute('aria-setsize')).toBe('2');
    expect(row('a').getAttribute('aria-expanded')).toBe('true');
    expect(row('f').getAttribute('aria-expanded')).toBeNull();
    fireEvent.click(row('e'));
    expect(selected()).toBe('e');
    expect(row('a').getAttribute('aria-selected')).toBe('false');
  });

  it('draws only the rows in view and those just around them, and follows the scroll', () => {
    const many = Array.from({ length: 1000 }, (_, i) => item(`n${i}`));
    render(<Tree roots={many} height={280} />);
    // 10 rows of 28 px in view and 10 below.
    expect(shown()).toHaveLength(20);
    expect(row('n0').getAttribute('aria-setsize')).toBe('1000');
    scrollable();
    tree().scrollTop = 500 * 28;
    fireEvent.scroll(tree());
    expect(shown()[0]).toBe('n490');
    expect(shown()).toContain('n509');
    expect(shown()).toHaveLength(30);
  });

  it('opens and closes a branch from its switcher, not from its title', () => {
    render(<Tree roots={SMALL} />);
    const switcher = (id: string) => row(id).querySelector('[data-switcher]') as HTMLElement;
    fireEvent.click(switcher('b'));
    expect(shown()).toEqual(['a', 'b', 'e', 'f']);
    expect(row('b').getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(row('b').querySelector('.name') as HTMLElement);
    expect(shown()).toEqual(['a', 'b', 'e', 'f']);
    expect(selected()).toBe('b');
    fireEvent.click(switcher('b'));
    expect(shown()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('moves the focus ring with the keyboard, opens and closes, and leaves the selection to clicks', () => {
    const onActivate = vi.fn();
    const onKey = vi.fn();
    render(<Tree roots={SMALL} onActivate={onActivate} onKey={onKey} />);
    fireEvent.focus(tree());
    expect(active()).toBe('a');
    press('ArrowDown');
    expect(active()).toBe('b');
    press('ArrowLeft');
    expect(shown()).toEqual(['a', 'b', 'e', 'f']);
    press('ArrowRight');
    expect(shown()).toContain('c');
    press('ArrowRight');
    expect(active()).toBe('c');
    press('ArrowLeft');
    expect(active()).toBe('b');
    press('Enter');
    expect(shown()).toEqual(['a', 'b', 'e', 'f']);
    press(' ');
    expect(shown()).toContain('d');
    press('End');
    expect(active()).toBe('f');
    press('Enter');
    expect(onActivate).toHaveBeenCalledWith(SMALL[1]);
    press('Home');
    expect(active()).toBe('a');
    press('F2');
    expect(onKey).toHaveBeenCalledWith(SMALL[0], expect.objectContaining({ key: 'F2' }));
    expect(selected()).toBeUndefined();
  });

  it('selects the row the keyboard reaches when the selection follows the focus', () => {
    render(<Tree roots={SMALL} selectionFollowsFocus />);
    fireEvent.click(row('d'));
    expect(active()).toBe('d');
    press('ArrowUp');
    expect(selected()).toBe('c');
    expect(active()).toBe('c');
    press('ArrowLeft');
    expect(selected()).toBe('b');
    press('End');
    expect(selected()).toBe('f');
  });

  it('scrolls the row the keyboard reaches into view', () => {
    const many = Array.from({ length: 1000 }, (_, i) => item(`n${i}`));
    render(<Tree roots={many} height={280} />);
    scrollable();
    fireEvent.focus(tree());
    press('End');
    expect(tree().scrollTop).toBe(1000 * 28 - 280);
    expect(active()).toBe('n999');
    press('Home');
    expect(tree().scrollTop).toBe(0);
    expect(active()).toBe('n0');
  });

  it('opens the menu of a node on a right click and with Shift+F10, and runs the entry picked', async () => {
    const picked = vi.fn();
    render(<WithMenu picked={picked} />);
    fireEvent.contextMenu(row('e'));
    expect(active()).toBe('e');
    fireEvent.click(await screen.findByText('Rename e'));
    expect(picked).toHaveBeenCalledWith('rename', SMALL[0]?.children[1]);
    press('ArrowDown');
    press('F10', { shiftKey: true });
    expect(await screen.findByText('Rename f')).toBeDefined();
  });

  it('drags a row onto another and says where it lands; refused drops are not offered', () => {
    const onDrop = vi.fn();
    const transfer = () => ({ setData: () => {}, getData: () => '', effectAllowed: '', dropEffect: '' });
    render(
      <Tree
        roots={SMALL}
        drag={{
          canDrag: (node) => node.id !== 'a',
          holds: (node) => node.children.length > 0,
          canDrop: (_item, target) => target.id !== 'e',
          onDrop,
        }}
      />,
    );
    expect(row('a').getAttribute('draggable')).toBe('false');
    expect(row('f').getAttribute('draggable')).toBe('true');
    fireEvent.dragStart(row('f'), { dataTransfer: transfer() });
    expect(fireEvent.dragOver(row('e'), { clientY: 14, dataTransfer: transfer() })).toBe(true);
    expect(fireEvent.dragOver(row('b'), { clientY: 14, dataTransfer: transfer() })).toBe(false);
    expect(row('b').className).toContain('gdb-tree-drop-inside');
    fireEvent.drop(row('b'), { clientY: 14, dataTransfer: transfer() });
    expect(onDrop).toHaveBeenCalledWith(SMALL[1], SMALL[0]?.children[0], 'inside');
    expect(row('b').className).not.toContain('gdb-tree-drop');
  });
});
