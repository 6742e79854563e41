import '../../../test/dom.ts';
import type { Tag } from '@gdb/shared/tags/tags.schemas';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { button, confirmation, dialog } from '../../../test/queries.ts';
import { type DocumentBadges, DocumentBadgesDialog } from './DocumentBadgesDialog.tsx';

const tag = (_id: string, name: string, isMetadata = false): Tag => ({
  _id,
  name,
  type: 'project',
  color: null,
  isHidden: false,
  isMetadata,
  metadata: isMetadata ? 'meta' : null,
});
const TAGS = [tag('p', 'Paris'), tag('l', 'Lyon'), tag('m', 'Marketing', true)];

function show(value: DocumentBadges, withMetadata = false) {
  const onSave = vi.fn(async (_: DocumentBadges) => {});
  const onClose = vi.fn();
  render(
    <AntApp>
      <DocumentBadgesDialog
        open
        title="Plans"
        tags={TAGS}
        value={value}
        withMetadata={withMetadata}
        onSave={onSave}
        onClose={onClose}
      />
    </AntApp>,
  );
  return { onSave, onClose };
}

const section = (modal: HTMLElement, name: string) => within(modal).getByRole('region', { name });

describe('Manage document badges dialog', () => {
  it('is 70% wide, with read and write selectors at most 120 px high, metadata badges only for components', async () => {
    show({ read: [], write: [], metadataTags: [] });
    const modal = await dialog('Manage badges of Plans');
    expect((modal as HTMLElement).style.width).toBe('70%');
    const boxes = [...modal.querySelectorAll<HTMLElement>('.gdb-tag-selector-box')];
    expect(boxes).toHaveLength(2);
    for (const b of boxes) expect(b.style.maxHeight).toBe('120px');
    expect(within(modal).queryByText('Metadata badges')).toBeNull();
    expect(within(section(modal, 'Read badges')).queryByText('Marketing')).toBeNull();
  });

  it('saves read and write as groups, a new group being an alternative, and the metadata badges', async () => {
    const { onSave } = show({ read: [['p']], write: [], metadataTags: [] }, true);
    const modal = await dialog('Manage badges of Plans');
    const read = section(modal, 'Read badges');
    fireEvent.click(button('Add a read group', read));
    fireEvent.click(
      within(within(read).getByRole('group', { name: 'Read badges, group 2' })).getByRole('checkbox', { name: 'Lyon' }),
    );
    const write = section(modal, 'Write badges');
    fireEvent.click(within(write).getByRole('checkbox', { name: 'Paris' }));
    fireEvent.click(within(write).getByRole('checkbox', { name: 'Lyon' }));
    fireEvent.click(within(section(modal, 'Metadata badges')).getByRole('checkbox', { name: 'Marketing' }));
    fireEvent.click(button('Save', modal));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]?.[0]).toEqual({ read: [['p'], ['l']], write: [['p', 'l']], metadataTags: ['m'] });
  });

  it("asks 'Do you want to save the current modifications?' when closed with changes; Yes saves", async () => {
    const { onSave, onClose } = show({ read: [], write: [], metadataTags: [] });
    const modal = await dialog('Manage badges of Plans');
    fireEvent.click(within(section(modal, 'Read badges')).getByRole('checkbox', { name: 'Paris' }));
    fireEvent.click(button('Cancel', modal));
    const question = await confirmation();
    expect(question.textContent).toContain('Do you want to save the current modifications?');
    fireEvent.click(button('Yes', question));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ read: [['p']], write: [], metadataTags: [] }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('closes at once without changes', async () => {
    const { onSave, onClose } = show({ read: [['p']], write: [], metadataTags: [] });
    const modal = await dialog('Manage badges of Plans');
    fireEvent.click(button('Cancel', modal));
    expect(onClose).toHaveBeenCalled();
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.queryByText('Do you want to save the current modifications?')).toBeNull();
  });
});
