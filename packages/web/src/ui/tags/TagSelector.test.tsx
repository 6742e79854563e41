import '../../../test/dom.ts';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type SelectableTag, TagSelector } from './TagSelector.tsx';

const tags: SelectableTag[] = [
  { _id: 't-beta', name: 'beta', isHidden: false },
  { _id: 't-alpha', name: 'Alpha', isHidden: false, color: '#ff0000' },
  { _id: 't-secret', name: 'secret', isHidden: true },
  { _id: 't-gamma', name: 'Gamma', isHidden: false },
];

function Harness({ initial, onChange }: { initial: string[]; onChange: (ids: string[]) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <AntApp>
      <TagSelector
        label="Badges"
        tags={tags}
        value={value}
        onChange={(ids) => {
          setValue(ids);
          onChange(ids);
        }}
      />
    </AntApp>
  );
}

const items = () => [...document.querySelectorAll('.gdb-tag-selector-item')].map((el) => el.textContent);
const box = (name: string) => screen.getByRole('checkbox', { name });

describe('tag selector', () => {
  it('lists the badges sorted by name ignoring case, without the hidden ones, in a 290 px box', () => {
    render(<Harness initial={[]} onChange={() => {}} />);
    expect(items()).toEqual(['Alpha', 'beta', 'Gamma']);
    expect(screen.queryByText('secret')).toBeNull();
    expect((document.querySelector('.gdb-tag-selector-box') as HTMLElement).style.height).toBe('290px');
  });

  it('ticks one badge, then all with Select all, keeping an id it does not offer', () => {
    const changes = vi.fn();
    render(<Harness initial={['t-secret']} onChange={changes} />);
    fireEvent.click(box('beta'));
    expect(changes).toHaveBeenLastCalledWith(['t-secret', 't-beta']);
    expect((box('Select all') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(box('Select all'));
    expect([...(changes.mock.lastCall?.[0] ?? [])].sort()).toEqual(['t-alpha', 't-beta', 't-gamma', 't-secret']);
    expect((box('Select all') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(box('Select all'));
    expect(changes).toHaveBeenLastCalledWith(['t-secret']);
  });

  it("says 'No tags' when there is nothing to offer, without Select all", () => {
    render(
      <AntApp>
        <TagSelector tags={[{ _id: 'h', name: 'hidden', isHidden: true }]} value={[]} onChange={() => {}} maxHeight={220} />
      </AntApp>,
    );
    const selector = document.querySelector('.gdb-tag-selector') as HTMLElement;
    expect(within(selector).getByText('No tags')).toBeTruthy();
    expect(screen.queryByText('Select all')).toBeNull();
    expect((document.querySelector('.gdb-tag-selector-box') as HTMLElement).style.maxHeight).toBe('220px');
  });
});
