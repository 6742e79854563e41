import '../../../test/dom.ts';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clampSplit, SplitPanel } from './SplitPanel.tsx';

const sized = (width: number) =>
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('gdb-split') ? width : 0;
  });

describe('SplitPanel', () => {
  afterEach(() => vi.restoreAllMocks());

  it('starts at half, with a 5 px handle', () => {
    sized(405);
    render(<SplitPanel first="A" second="B" />);
    const handle = screen.getByRole('separator');
    expect(handle.style.width).toBe('5px');
    expect(handle.getAttribute('aria-valuenow')).toBe('200');
  });

  it('keeps at least 10 px each side, by keyboard and by a given position', () => {
    sized(405);
    const onResize = vi.fn();
    render(<SplitPanel first="A" second="B" position={15} onResize={onResize} />);
    const handle = screen.getByRole('separator');
    expect(handle.getAttribute('aria-valuenow')).toBe('15');
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    expect(onResize).toHaveBeenLastCalledWith(10);
    expect(handle.getAttribute('aria-valuenow')).toBe('10');
    expect(clampSplit(1000, 405)).toBe(390);
    expect(clampSplit(-5, 405)).toBe(10);
  });
});
