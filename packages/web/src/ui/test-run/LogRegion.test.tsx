import '../../../test/dom.ts';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LogRegion } from './LogRegion.tsx';
import type { TestLogLine } from './test-logs.ts';

const line = (seq: number, level: TestLogLine['level'] = 'info'): TestLogLine => ({
  seq,
  level,
  message: `line ${seq}`,
  date: '2026-12-06T10:00:00.000Z',
});
const lines = (n: number) => Array.from({ length: n }, (_, i) => line(i));

/** Gives the region a size jsdom does not compute: `content` px of lines in a 100 px box. */
function sized(el: HTMLElement, content: number) {
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: 100 });
  Object.defineProperty(el, 'scrollHeight', { configurable: true, value: content });
}

describe('LogRegion', () => {
  it('is a polite live log region showing each line with its date and level', () => {
    render(<LogRegion label="Logs" lines={[line(0), line(1, 'warn')]} />);
    const region = screen.getByRole('log', { name: 'Logs' });
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.tabIndex).toBe(0);
    expect([...region.children].map((c) => c.textContent)).toEqual([
      '2026-12-06T10:00:00.000Z [info] line 0',
      '2026-12-06T10:00:00.000Z [warn] line 1',
    ]);
  });

  it('follows the newest line, and stops following once the reader scrolled up, until they scroll back down', () => {
    const view = render(<LogRegion label="Logs" lines={lines(3)} />);
    const region = screen.getByRole('log', { name: 'Logs' });
    sized(region, 300);
    view.rerender(<LogRegion label="Logs" lines={lines(4)} />);
    expect(region.scrollTop).toBe(300);

    region.scrollTop = 50;
    fireEvent.scroll(region);
    sized(region, 400);
    view.rerender(<LogRegion label="Logs" lines={lines(5)} />);
    expect(region.scrollTop).toBe(50);

    region.scrollTop = 300;
    fireEvent.scroll(region);
    sized(region, 500);
    view.rerender(<LogRegion label="Logs" lines={lines(6)} />);
    expect(region.scrollTop).toBe(500);
  });

  it('keeps the lines already shown when more arrive (keyed by their index)', () => {
    const view = render(<LogRegion label="Logs" lines={lines(2)} />);
    const first = screen.getByText(/line 0/);
    view.rerender(<LogRegion label="Logs" lines={lines(3)} />);
    expect(screen.getByText(/line 0/)).toBe(first);
    expect(screen.getAllByText(/line \d/)).toHaveLength(3);
  });
});
