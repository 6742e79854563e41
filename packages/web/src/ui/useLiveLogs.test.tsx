import '../../test/dom.ts';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fakeLiveClient, hex } from '../../test/live.ts';
import { LiveProvider } from '../ground/live/LiveProvider.tsx';
import { type LogSelection, useLiveLogs } from './useLiveLogs.ts';

const log = (id: number, importId: string, message = `line ${id}`) => ({
  _id: String(id),
  logDate: '2026-11-22T08:00:00.000Z',
  level: 'info',
  message,
  dataSubKind: null,
  uploadId: null,
  importId,
});

function setup(initial: LogSelection | null, onInsert?: (l: { message: string }) => void) {
  const live = fakeLiveClient();
  const wrapper = ({ children }: { children: ReactNode }) => <LiveProvider client={live.client}>{children}</LiveProvider>;
  const hook = renderHook((selection: LogSelection | null) => useLiveLogs(selection, onInsert ? { onInsert } : {}), {
    wrapper,
    initialProps: initial,
  });
  return { ...live, hook };
}

const serve = async (live: ReturnType<typeof fakeLiveClient>, event: string, data: unknown, filter: Record<string, unknown>) => {
  await act(async () => {
    live.socket().fire(event, hex({ subscriptionId: live.socket().idOf(filter), data }));
    await new Promise((r) => setTimeout(r, 5));
  });
};

describe('useLiveLogs', () => {
  it('shows the initial set newest first, then puts each new line on top', async () => {
    const onInsert = vi.fn();
    const live = setup({ importId: 'i1' }, onInsert);
    expect(live.hook.result.current.status).toBe('connecting');
    await act(async () => {
      live.socket().open();
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(live.socket().lastSubscribe()).toMatchObject({ collectionName: 'logs', filter: { importId: ['i1'] } });
    await serve(live, 'init', [log(1, 'i1'), log(2, 'i1'), log(3, 'i1')], { importId: ['i1'] });
    expect(live.hook.result.current.logs.map((l) => l._id)).toEqual(['3', '2', '1']);
    expect(live.hook.result.current.status).toBe('live');
    await serve(
      live,
      'change',
      { operationType: 'insert', documentKey: { _id: '4' }, fullDocument: log(4, 'i1') },
      { importId: ['i1'] },
    );
    await serve(
      live,
      'change',
      { operationType: 'insert', documentKey: { _id: '5' }, fullDocument: log(5, 'i1') },
      { importId: ['i1'] },
    );
    expect(live.hook.result.current.logs.map((l) => l._id)).toEqual(['5', '4', '3', '2', '1']);
    expect(onInsert.mock.calls.map(([l]) => l.message)).toEqual(['line 4', 'line 5']);
    // A line that comes after a later one takes its place in the order they were written.
    await serve(
      live,
      'change',
      { operationType: 'insert', documentKey: { _id: '7' }, fullDocument: log(7, 'i1') },
      { importId: ['i1'] },
    );
    await serve(
      live,
      'change',
      { operationType: 'insert', documentKey: { _id: '6' }, fullDocument: log(6, 'i1') },
      { importId: ['i1'] },
    );
    expect(live.hook.result.current.logs.map((l) => l._id)).toEqual(['7', '6', '5', '4', '3', '2', '1']);
    await serve(
      live,
      'change',
      { operationType: 'update', documentKey: { _id: '2' }, fullDocument: log(2, 'i1', 'edited') },
      { importId: ['i1'] },
    );
    await serve(live, 'change', { operationType: 'delete', documentKey: { _id: '3' }, fullDocument: null }, { importId: ['i1'] });
    expect(live.hook.result.current.logs.map((l) => l.message)).toEqual([
      'line 7',
      'line 6',
      'line 5',
      'line 4',
      'edited',
      'line 1',
    ]);
  });

  it('cancels the previous subscription when another import is selected', async () => {
    const live = setup({ importId: 'i1' });
    await act(async () => {
      live.socket().open();
      await new Promise((r) => setTimeout(r, 0));
    });
    const first = live.socket().idOf({ importId: ['i1'] });
    await serve(live, 'init', [log(1, 'i1')], { importId: ['i1'] });
    await act(async () => {
      live.hook.rerender({ importId: 'i2' });
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(live.socket().unsubscribes()).toEqual([first]);
    expect(live.hook.result.current.logs).toEqual([]);
    expect(live.hook.result.current.status).toBe('connecting');
    await act(async () => {
      live.socket().fire(
        'change',
        hex({
          subscriptionId: first,
          data: { operationType: 'insert', documentKey: { _id: '9' }, fullDocument: log(9, 'i1') },
        }),
      );
      await new Promise((r) => setTimeout(r, 5));
    });
    expect(live.hook.result.current.logs).toEqual([]);
    await serve(live, 'init', [log(7, 'i2')], { importId: ['i2'] });
    expect(live.hook.result.current.logs.map((l) => l.importId)).toEqual(['i2']);
    expect(live.client.serverSubscriptions()).toHaveLength(1);
  });

  it('follows nothing without a selection, and closes the socket when unmounted', async () => {
    const live = setup(null);
    expect(live.sockets).toHaveLength(0);
    expect(live.hook.result.current.status).toBe('idle');
    act(() => live.hook.rerender({ uploadId: ['u1', 'u2'] }));
    expect(live.sockets).toHaveLength(1);
    live.hook.unmount();
    await waitFor(() => expect(live.client.open).toBe(false));
  });

  it('shows the lines again from a fresh init after a reconnect', async () => {
    const live = setup({ uploadId: 'u1' });
    await act(async () => {
      live.socket().open();
      await new Promise((r) => setTimeout(r, 0));
    });
    await serve(live, 'init', [log(1, 'x')], { uploadId: ['u1'] });
    await act(async () => {
      live.socket().drop();
      await new Promise((r) => setTimeout(r, 5));
    });
    expect(live.hook.result.current.status).toBe('disconnected');
    await act(async () => {
      live.socket().open();
      await new Promise((r) => setTimeout(r, 0));
    });
    await serve(live, 'init', [log(1, 'x'), log(2, 'x')], { uploadId: ['u1'] });
    await waitFor(() => expect(live.hook.result.current.logs.map((l) => l._id)).toEqual(['2', '1']));
    expect(live.hook.result.current.status).toBe('live');
  });
});
