import '../../test/dom.ts';
import type { LiveLog } from '@gdb/shared/live/live.schemas';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeLiveClient, hex } from '../../test/live.ts';
import { LiveProvider } from '../ground/live/LiveProvider.tsx';
import { formatLogDate, LiveLogView, LOG_VIEW_STATUS, LogView, NO_LOGS } from './LogView.tsx';

const line = (id: string, level: LiveLog['level'], message: string, dataSubKind: string | null = null): LiveLog => ({
  _id: id,
  logDate: '2026-11-22T08:09:10.000Z',
  level,
  message,
  dataSubKind,
  uploadId: 'u1',
  importId: null,
});

describe('LogView', () => {
  it("says 'There are no logs.' when there are none", () => {
    render(<LogView logs={[]} />);
    expect(screen.getByText(NO_LOGS)).toBeTruthy();
  });

  it('shows each line with its date, level, data source and message, in the order given', () => {
    render(<LogView logs={[line('2', 'error', 'Bad row 3', 'prices'), line('1', 'success', 'Upload checked')]} />);
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      `${formatLogDate('2026-11-22T08:09:10.000Z')}errorpricesBad row 3`,
      `${formatLogDate('2026-11-22T08:09:10.000Z')}successUpload checked`,
    ]);
    expect(items[0]?.className).toContain('gdb-log-error');
    expect(formatLogDate('2026-11-22T08:09:10.000Z')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('shows the oldest line first when asked, and the list takes the focus to scroll by keyboard', () => {
    render(<LogView logs={[line('2', 'success', 'checked'), line('1', 'info', 'received')]} oldestFirst />);
    expect(screen.getAllByRole('listitem').map((li) => li.querySelector('.gdb-log-message')?.textContent)).toEqual([
      'received',
      'checked',
    ]);
    expect(screen.getByRole('list', { name: 'Log lines' }).tabIndex).toBe(0);
  });

  it('tells when live updates are interrupted or refused', () => {
    const { rerender } = render(<LogView logs={[line('1', 'info', 'kept')]} status="disconnected" />);
    expect(screen.getByRole('status').textContent).toBe(LOG_VIEW_STATUS.disconnected);
    expect(screen.getByText('kept')).toBeTruthy();
    rerender(<LogView logs={[]} status="error" message="You are not allowed to do this." />);
    expect(screen.getByRole('status').textContent).toBe('You are not allowed to do this.');
  });
});

describe('LiveLogView', () => {
  it('shows the logs of the selected upload as they arrive, newest on top', async () => {
    const live = fakeLiveClient();
    render(
      <LiveProvider client={live.client}>
        <LiveLogView selection={{ uploadId: 'u1' }} />
      </LiveProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe(LOG_VIEW_STATUS.connecting);
    await act(async () => {
      live.socket().open();
      await new Promise((r) => setTimeout(r, 0));
    });
    const id = live.socket().idOf({ uploadId: ['u1'] });
    await act(async () => {
      live.socket().fire('init', hex({ subscriptionId: id, data: [line('1', 'info', 'first'), line('2', 'info', 'second')] }));
      live.socket().fire(
        'change',
        hex({
          subscriptionId: id,
          data: { operationType: 'insert', documentKey: { _id: '3' }, fullDocument: line('3', 'warn', 'third') },
        }),
      );
      await new Promise((r) => setTimeout(r, 5));
    });
    expect(screen.getAllByRole('listitem').map((li) => li.querySelector('.gdb-log-message')?.textContent)).toEqual([
      'third',
      'second',
      'first',
    ]);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
