import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ok, signedInAs } from '../../../test/fake-api.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { folder, leaf } from '../explorer/explorer-fixtures.ts';
import { DynamicForm } from '../forms/index.ts';
import { DocumentListPicker, DocumentPicker, type DocumentPickerProps } from './DocumentPicker.tsx';

/** Components ─ Mapping ─ Orders map (v1 locked as 'orders-v1', v2 a draft as 'orders') ─ Prices map. */
const TREE = [
  folder('root', 'Components', [folder('mapping', 'Mapping', [leaf('orders', 'Orders map', 2)]), leaf('prices', 'Prices map')]),
];

function show(props: Partial<DocumentPickerProps> = {}) {
  const server = signedInAs(['manager'], { 'GET /folders/tree': () => ok(TREE) });
  const onChange = vi.fn();
  renderWidget(<DocumentPicker kind="component" value={null} onChange={onChange} {...props} />);
  return { server, onChange };
}

const cascader = () => screen.getByLabelText('Choose a component') as HTMLInputElement;
const versionSelect = () => screen.getByLabelText('Version of the component') as HTMLInputElement;
const shownName = () => document.querySelector('.gdb-document-picker-name .ant-select-content')?.textContent;
const shownVersion = () => document.querySelector('.gdb-document-picker-version .ant-select-content')?.textContent;

async function pickFromMenu(...labels: string[]) {
  fireEvent.mouseDown(cascader());
  for (const label of labels) {
    const item = await waitFor(() => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-cascader-menu-item')].find((m) => m.textContent === label);
      expect(found).toBeDefined();
      return found as HTMLElement;
    });
    fireEvent.click(item);
  }
}

describe('document picker (form widgets component and sdk)', () => {
  it('shows the chosen version by the name of its document and its version label, and offers its other versions', async () => {
    const { onChange } = show({ value: 'orders-v1' });
    await waitFor(() => expect(shownName()).toBe('Orders map'));
    expect(shownVersion()).toBe('(v.1 - Prod)');
    fireEvent.mouseDown(versionSelect());
    await waitFor(() =>
      expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent)).toEqual([
        '(v.2 - Draft)',
        '(v.1 - Prod)',
      ]),
    );
    fireEvent.click(screen.getByText('(v.2 - Draft)'));
    expect(onChange).toHaveBeenCalledWith('orders');
  });

  it("shows a chosen version the caller may not read as '(no access)', never its id", async () => {
    const hidden = '00000000-0000-4000-8000-00000000beef';
    const { server } = show({ value: hidden });
    await waitFor(() => expect(server.count('GET /folders/tree')).toBe(1));
    await waitFor(() => expect(shownVersion()).toBe('(no access)'));
    expect(document.querySelector('.gdb-document-picker-name')?.textContent).toContain('(no access)');
    expect(document.body.textContent).not.toContain(hidden);
  });

  it("chooses a document through the explorer's folders, answering its newest version", async () => {
    const { onChange } = show();
    await pickFromMenu('Components', 'Mapping', 'Orders map');
    expect(onChange).toHaveBeenCalledWith('orders');
  });

  it('is clearable', async () => {
    const { onChange } = show({ value: 'prices' });
    await waitFor(() => expect(shownName()).toBe('Prices map'));
    const clear = document.querySelector('.gdb-document-picker-name .ant-select-clear') as HTMLElement;
    fireEvent.mouseDown(clear);
    fireEvent.click(clear);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(null));
  });

  it('opens the chosen version in the component editor in a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    show({ value: 'orders-v1' });
    fireEvent.click(screen.getByRole('button', { name: 'Edit component' }));
    expect(open).toHaveBeenCalledWith('/manage/components?id=orders-v1', '_blank', 'noopener');
    open.mockRestore();
  });

  it('has nothing to edit without a choice', () => {
    show();
    expect((screen.getByRole('button', { name: 'Edit component' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('is read-only when asked: the choice shown, not changed', async () => {
    show({ value: 'prices', readOnly: true });
    await waitFor(() => expect(shownName()).toBe('Prices map'));
    expect(cascader().disabled).toBe(true);
    expect(versionSelect().disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Edit component' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('document list picker (a component SDK functions)', () => {
  it('shows one picker per document and an empty one to add another; clearing one takes it out', async () => {
    signedInAs(['super-admin'], { 'GET /folders/tree': () => ok(TREE) });
    const onChange = vi.fn();
    renderWidget(<DocumentListPicker kind="sdk" value={['orders', 'prices']} onChange={onChange} />);
    await waitFor(() =>
      expect([...document.querySelectorAll('.gdb-document-picker-name .ant-select-content')].map((e) => e.textContent)).toEqual([
        'Orders map',
        'Prices map',
        'Select a sdk',
      ]),
    );
    const clear = document.querySelectorAll<HTMLElement>('.gdb-document-picker-name .ant-select-clear')[0] as HTMLElement;
    fireEvent.mouseDown(clear);
    fireEvent.click(clear);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(['prices']));
  });
});

describe('the form widgets component, sdk and pipeline', () => {
  const SCHEMA = {
    type: 'object',
    properties: {
      instanceOf: { type: 'string', title: 'Component', ui: { label: 'Component', widget: 'component' } },
      sdk: { type: 'array', items: { type: 'string' }, title: 'SDK functions', ui: { label: 'SDK functions', widget: 'sdk' } },
      masterPipeline: { type: 'string', title: 'Master pipeline', ui: { label: 'Master pipeline', widget: 'pipeline' } },
    },
  };

  it('draw the pickers, read-only when the form is', async () => {
    signedInAs(['super-admin'], { 'GET /folders/tree': () => ok(TREE), 'GET /pipelines/masters': () => ok([]) });
    renderWidget(<DynamicForm schema={SCHEMA} value={{ instanceOf: 'prices', sdk: ['orders'], masterPipeline: '' }} disabled />);
    await screen.findByLabelText('Choose a component');
    expect((screen.getByLabelText('Choose a component') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Choose a SDK function') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Pipeline') as HTMLInputElement).disabled).toBe(true);
    // Read-only: no empty picker to add an SDK function.
    expect(screen.getAllByLabelText('Choose a SDK function')).toHaveLength(1);
  });
});
