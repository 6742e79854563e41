import '../../test/dom.ts';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeLiveClient, hex } from '../../test/live.ts';
import { LiveProvider } from '../ground/live/LiveProvider.tsx';
import { useLiveImports } from './useLiveImports.ts';
import { useLiveUploads } from './useLiveUploads.ts';

const upload = (id: string, status: string) => ({
  _id: id,
  pipelineId: 'p',
  dataSubKind: 'main',
  from: 'source',
  status,
  originalFilename: `${id}.csv`,
  contentType: 'text/csv',
  size: 10,
  rowCount: null,
  importId: null,
  enabled: true,
  createdAt: '2026-11-22T08:00:00.000Z',
  createdBy: null,
  importedAt: null,
  importedBy: null,
  sentFrom: 'wizard',
});

const record = (id: string, state: string, success: boolean) => ({
  _id: id,
  pipeline: 'p1',
  job: null,
  parentImport: null,
  scheduledAt: null,
  startedAt: '2026-11-22T08:00:00.000Z',
  endAt: null,
  state,
  success,
  progress: 0,
  user: null,
  destinations: [],
  createdAt: '2026-11-22T08:00:00.000Z',
});

async function settle(fn: () => void) {
  await act(async () => {
    fn();
    await new Promise((r) => setTimeout(r, 5));
  });
}

function wrapperOf(live: ReturnType<typeof fakeLiveClient>) {
  return ({ children }: { children: ReactNode }) => <LiveProvider client={live.client}>{children}</LiveProvider>;
}

describe('useLiveUploads', () => {
  it('changes an upload status without reload, in the order of the ids asked for', async () => {
    const live = fakeLiveClient();
    const hook = renderHook((ids: string[]) => useLiveUploads(ids), { wrapper: wrapperOf(live), initialProps: ['b', 'a'] });
    await settle(() => live.socket().open());
    const id = live.socket().idOf({ _id: ['a', 'b'] });
    await settle(() =>
      live.socket().fire('init', hex({ subscriptionId: id, data: [upload('a', 'pending'), upload('b', 'valid')] })),
    );
    expect(hook.result.current.uploads.map((u) => [u._id, u.status])).toEqual([
      ['b', 'valid'],
      ['a', 'pending'],
    ]);
    await settle(() =>
      live.socket().fire(
        'change',
        hex({
          subscriptionId: id,
          data: { operationType: 'update', documentKey: { _id: 'a' }, fullDocument: upload('a', 'invalid') },
        }),
      ),
    );
    expect(hook.result.current.byId.get('a')?.status).toBe('invalid');
    await settle(() => hook.rerender(['b', 'a']));
    expect(live.socket().subscribes()).toHaveLength(1);
    await settle(() => hook.rerender([]));
    await settle(() => {});
    expect(live.client.open).toBe(false);
    expect(hook.result.current.uploads).toEqual([]);
  });
});

describe('useLiveImports', () => {
  it('follows the imports of a logbook page and the new ones of a pipeline', async () => {
    const live = fakeLiveClient();
    const hook = renderHook(() => useLiveImports({ ids: ['i1', 'i2'] }), { wrapper: wrapperOf(live) });
    const byPipeline = renderHook(() => useLiveImports({ pipeline: 'p1' }), { wrapper: wrapperOf(live) });
    await settle(() => live.socket().open());
    const pageId = live.socket().idOf({ _id: ['i1', 'i2'] });
    await settle(() =>
      live
        .socket()
        .fire('init', hex({ subscriptionId: pageId, data: [record('i1', 'busy', false), record('i2', 'done', true)] })),
    );
    await settle(() =>
      live.socket().fire(
        'change',
        hex({
          subscriptionId: pageId,
          data: { operationType: 'update', documentKey: { _id: 'i1' }, fullDocument: record('i1', 'failed', false) },
        }),
      ),
    );
    expect(hook.result.current.byId.get('i1')?.state).toBe('failed');
    const pipelineId = live.socket().idOf({ pipeline: ['p1'] });
    await settle(() => live.socket().fire('init', hex({ subscriptionId: pipelineId, data: [] })));
    await settle(() =>
      live.socket().fire(
        'change',
        hex({
          subscriptionId: pipelineId,
          data: { operationType: 'insert', documentKey: { _id: 'i3' }, fullDocument: record('i3', 'pending', false) },
        }),
      ),
    );
    expect(byPipeline.result.current.docs.map((d) => d._id)).toEqual(['i3']);
  });
});
