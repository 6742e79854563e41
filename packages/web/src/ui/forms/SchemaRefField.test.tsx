import '../../../test/dom.ts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { envelope, fakeApi, ok } from '../../../test/fake-api.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { DynamicForm, type DynamicFormHandle } from './DynamicForm.tsx';
import { truncateText } from './SchemaRefField.tsx';

const model = (name: string, jsonSchema: Record<string, unknown>) => ({ _id: `id-${name}`, name, version: 1, jsonSchema });
const refForm = (widgetConfig: Record<string, unknown>, value?: unknown) => ({
  type: 'object',
  properties: {
    payload: {
      type: 'string',
      title: 'Payload',
      ui: { widget: 'schemaRef', widgetConfig },
      ...(value === undefined ? {} : { value }),
    },
  },
});

describe('data model reference field', () => {
  it('shows at most 200 characters: the first 100 and the last 100 around an ellipsis', () => {
    const long = `${'a'.repeat(100)}${'m'.repeat(50)}${'z'.repeat(100)}`;
    expect(truncateText(long)).toBe(`${'a'.repeat(100)}…${'z'.repeat(100)}`);
    expect(truncateText('short')).toBe('short');
  });

  it('edits an object in a dialog titled with the model name; Apply writes the value back at its path', async () => {
    fakeApi({
      'GET /schemas/byname': () =>
        ok(model('Address', { type: 'object', properties: { city: { type: 'string', title: 'City' } } })),
    });
    const ref = createRef<DynamicFormHandle>();
    renderWidget(<DynamicForm ref={ref} schema={refForm({ schemaName: 'Address' })} />);
    expect(await screen.findByText('object')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Address')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('City'), { target: { value: 'Lyon' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(ref.current?.getValue().payload).toEqual({ city: 'Lyon' }));
    expect(screen.getByText('{"city":"Lyon"}')).toBeTruthy();
  });

  it('closing the dialog asks "Quit ?"; Cancel leaves the value as it was', async () => {
    fakeApi({ 'GET /schemas/byname': () => ok(model('Label', { type: 'string' })) });
    const ref = createRef<DynamicFormHandle>();
    renderWidget(<DynamicForm ref={ref} schema={refForm({ schemaName: 'Label' }, 'old')} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Value'), { target: { value: 'new' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Quit ?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull());
    expect(ref.current?.getValue().payload).toBe('old');
  });

  it('a boolean as True/False, and an enum through its named property', async () => {
    fakeApi({
      'GET /schemas/byname': (call) => {
        const name = new URLSearchParams(call.search).get('name');
        if (name === 'Flag') return ok(model('Flag', { type: 'boolean' }));
        return ok(model('Color', { type: 'string', enum: ['red', 'blue'], title: 'Color', ui: { widget: 'radio' } }));
      },
    });
    const ref = createRef<DynamicFormHandle>();
    const schema = {
      type: 'object',
      properties: {
        flag: { type: 'boolean', title: 'Flag', ui: { widget: 'schemaRef', widgetConfig: { schemaName: 'Flag' } } },
        color: {
          type: 'string',
          title: 'Color',
          ui: { widget: 'schemaRef', widgetConfig: { schemaName: 'Color', property: 'color' } },
        },
      },
    };
    renderWidget(<DynamicForm ref={ref} schema={schema} />);
    await screen.findByText('boolean');
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit' })[0] as HTMLElement);
    let dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'True' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(ref.current?.getValue().flag).toBe(true));
    expect(screen.getByText('enum')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit' })[1] as HTMLElement);
    await waitFor(() => expect(screen.getAllByRole('dialog').length).toBeGreaterThan(0));
    dialog = screen.getAllByRole('dialog').at(-1) as HTMLElement;
    fireEvent.click(within(dialog).getByRole('radio', { name: 'blue' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(ref.current?.getValue().color).toBe('blue'));
  });

  it("'No renderer for type {type}' for other types", async () => {
    fakeApi({ 'GET /schemas/byname': () => ok(model('Nothing', { type: 'null' })) });
    renderWidget(<DynamicForm schema={refForm({ schemaName: 'Nothing' })} />);
    await screen.findByText('null');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(await screen.findByText('No renderer for type null')).toBeTruthy();
  });

  it('a model that cannot be read: its message, and an empty object model', async () => {
    fakeApi({ 'GET /schemas/byname': () => envelope(40400, 'Cannot load schema Gone from server', null, 404) });
    renderWidget(<DynamicForm schema={refForm({ schemaName: 'Gone' })} />);
    expect(await screen.findByText('Cannot load schema Gone from server')).toBeTruthy();
    expect(screen.getByText('object')).toBeTruthy();
  });
});
