import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, ok, signedInAs } from '../../../test/fake-api.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { vid } from '../../../test/versions-fixtures.ts';
import { SchemaPicker, type SchemaPickerProps } from './SchemaPicker.tsx';

const entry = (n: number, name: string, version: number, vLocked: boolean) => ({
  _id: vid(n),
  familyId: vid(n + 100),
  name,
  version,
  vLocked,
  folder: null,
});
const LIST = [entry(1, 'orders', 1, true), entry(2, 'Address', 2, false), entry(3, 'address', 1, true)];

function show(props: Partial<SchemaPickerProps> = {}, answer: () => Response = () => ok(LIST)) {
  const server = signedInAs(['manager'], { 'GET /schemas/list': answer });
  const onChange = vi.fn();
  renderWidget(<SchemaPicker value={null} onChange={onChange} {...props} />);
  return { server, onChange };
}

const input = () => screen.getByLabelText('Schema') as HTMLInputElement;
const optionLabels = () => [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
const editButton = () => screen.getByRole('button', { name: 'Edit schema' }) as HTMLButtonElement;

describe('schema picker', () => {
  it("is labelled 'Schema' and lists each version by name ignoring case, then version, with its label", async () => {
    const { server } = show();
    await waitFor(() => expect(server.count('GET /schemas/list')).toBe(1));
    fireEvent.mouseDown(input());
    await waitFor(() => expect(optionLabels()).toEqual(['address (v.1 - Prod)', 'Address (v.2 - Draft)', 'orders (v.1 - Prod)']));
  });

  it('filters by what is typed and answers the chosen id', async () => {
    const { onChange } = show();
    fireEvent.mouseDown(input());
    await waitFor(() => expect(optionLabels()).toHaveLength(3));
    fireEvent.change(input(), { target: { value: 'ord' } });
    await waitFor(() => expect(optionLabels()).toEqual(['orders (v.1 - Prod)']));
    fireEvent.click(screen.getByText('orders (v.1 - Prod)'));
    expect(onChange).toHaveBeenCalledWith(vid(1));
  });

  it("shows a chosen data model the caller may not read as '(no access)', never its id", async () => {
    const hidden = vid(9);
    const { server } = show({ value: hidden });
    await waitFor(() => expect(server.count('GET /schemas/list')).toBe(1));
    await waitFor(() =>
      expect(document.querySelector('.gdb-schema-picker .ant-select-content')?.textContent).toBe('(no access)'),
    );
    expect(document.body.textContent).not.toContain(hidden);
  });

  it('is clearable', async () => {
    const { onChange } = show({ value: vid(1) });
    await screen.findByText('orders (v.1 - Prod)');
    const clear = document.querySelector('.ant-select-clear') as HTMLElement;
    fireEvent.mouseDown(clear);
    fireEvent.click(clear);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(null));
  });

  it('opens the chosen data model in the editor in a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    show({ value: vid(2) });
    fireEvent.click(editButton());
    expect(open).toHaveBeenCalledWith(`/manage/schemas?id=${vid(2)}`, '_blank', 'noopener');
    open.mockRestore();
  });

  it("calls the host form's edit action instead when it has one", async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const onEdit = vi.fn();
    show({ value: vid(3), onEdit });
    fireEvent.click(editButton());
    expect(onEdit).toHaveBeenCalledWith(vid(3));
    expect(open).not.toHaveBeenCalled();
    open.mockRestore();
  });

  it('has nothing to edit without a choice', () => {
    show();
    expect(editButton().disabled).toBe(true);
  });

  it('is disabled when read-only', () => {
    show({ value: vid(1), readOnly: true });
    expect(input().disabled).toBe(true);
  });

  it("shows the server's message when the list cannot be read", async () => {
    show({}, () => envelope(40300, 'You may not read data models.', null, 403));
    await screen.findByText('You may not read data models.');
  });
});
