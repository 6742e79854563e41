import '../../../test/dom.ts';
import { MAPPING_MESSAGES, matchFieldsOf } from '@gdb/shared/uploads/column-matcher';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../test/render-widget.tsx';
import { ColumnMappingDialog, MAPPING_TEXTS } from './ColumnMappingDialog.tsx';

const fields = matchFieldsOf({
  type: 'object',
  required: ['dealerCode', 'city'],
  properties: { dealerCode: {}, city: {}, email: {} },
});
const head = {
  columns: ['Dealer Code', 'Town', 'Notes'],
  samples: [['FR001', 'FR002'], ['Lyon'], []],
};

describe('the column mapping dialog', () => {
  it('shows each column with its first values and a labelled select; a required field unmapped blocks Confirm', async () => {
    const onConfirm = vi.fn(async () => undefined);
    renderWidget(
      <ColumnMappingDialog
        dataSubKind="dealers"
        head={head}
        fields={fields}
        proposed={[
          { column: 'Dealer Code', field: 'dealerCode' },
          { column: 'Town', field: null },
          { column: 'Notes', field: null },
        ]}
        contested={[]}
        onConfirm={onConfirm}
        onCancel={() => {}}
      />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(MAPPING_TEXTS.title('dealers'))).toBeTruthy();
    expect(within(dialog).getByText('FR001, FR002')).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: MAPPING_TEXTS.fieldOf('Town') })).toBeTruthy();
    expect(within(dialog).getByText(MAPPING_MESSAGES.missing(['city']))).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: MAPPING_TEXTS.confirm })).toHaveProperty('disabled', true);

    // Town → city: nothing required is left, and Confirm stores the choices.
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: MAPPING_TEXTS.fieldOf('Town') }));
    fireEvent.click(await screen.findByTitle('city *'));
    await waitFor(() => expect(within(dialog).queryByText(MAPPING_MESSAGES.missing(['city']))).toBeNull());
    fireEvent.click(within(dialog).getByRole('button', { name: MAPPING_TEXTS.confirm }));
    await waitFor(() =>
      expect(onConfirm).toHaveBeenCalledWith([
        { column: 'Dealer Code', field: 'dealerCode' },
        { column: 'Town', field: 'city' },
        { column: 'Notes', field: null },
      ]),
    );
  });
});
