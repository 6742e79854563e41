import '../../../test/dom.ts';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../test/render-widget.tsx';
import { AliasesOption } from './AliasesOption.tsx';

describe("a field's alternate names", () => {
  it('are shown separated by commas and committed as a list of distinct names, none when emptied', async () => {
    const onCommit = vi.fn(() => null);
    renderWidget(<AliasesOption value={['Ville']} onCommit={onCommit} />);
    const input = (await screen.findByLabelText('Alternate names')) as HTMLInputElement;
    expect(input.value).toBe('Ville');
    fireEvent.change(input, { target: { value: 'Ville, Town , ,Ville' } });
    fireEvent.blur(input);
    expect(onCommit).toHaveBeenLastCalledWith(['Ville', 'Town']);
    fireEvent.change(input, { target: { value: ' ' } });
    fireEvent.blur(input);
    expect(onCommit).toHaveBeenLastCalledWith(undefined);
  });
});
