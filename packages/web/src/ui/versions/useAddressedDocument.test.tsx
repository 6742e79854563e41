import '../../../test/dom.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, renderHook, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { button, confirmation } from '../../../test/queries.ts';
import { versionedFields, vid } from '../../../test/versions-fixtures.ts';
import { useAddressedDocument } from './useAddressedDocument.ts';

const SHOWN = vid(1);
const OTHER = vid(2);
const KEYS = { all: ['things'], find: (id: string) => ['things', 'find', id] };
const TEXTS = { wouldBeLost: 'Current thing would be lost, are you sure?', saved: 'Thing saved' };

type Thing = ReturnType<typeof versionedFields>;

/** Renders the hook at `?id=SHOWN` over a server answering `reads`; `unsaved` says whether the page holds changes. */
function renderThing(
  reads: Record<string, Thing>,
  unsaved = false,
  texts: typeof TEXTS | { wouldBeLost: string; saved: (id: string) => string } = TEXTS,
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const find = vi.fn(async (id: string) => {
    const read = reads[id];
    if (!read) throw new Error(`Cannot load thing ${id}`);
    return read;
  });
  const create = vi.fn(async () => ({ _id: OTHER }));
  const onAdopt = vi.fn();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <AntApp>
        <MemoryRouter initialEntries={[`/things?id=${SHOWN}`]}>{children}</MemoryRouter>
      </AntApp>
    </QueryClientProvider>
  );
  const hook = renderHook(
    () => ({
      doc: useAddressedDocument({ kind: 'component', keys: KEYS, find, create, texts, unsaved: () => unsaved, onAdopt }),
      search: useLocation().search,
    }),
    { wrapper },
  );
  return { hook, queryClient, find, create, onAdopt };
}

/** Waits until the hook shows the version `id`. */
const shows = (hook: ReturnType<typeof renderThing>['hook'], id: string) =>
  waitFor(() => expect(hook.result.current.doc.current?._id).toBe(id));

describe('useAddressedDocument', () => {
  it('reads the version the address names and shows it, writable for a draft the user may write', async () => {
    const dealer = versionedFields(SHOWN, 'Dealer');
    const { hook, find, onAdopt } = renderThing({ [SHOWN]: dealer });
    await shows(hook, SHOWN);
    expect(find).toHaveBeenCalledWith(SHOWN, expect.any(AbortSignal));
    expect(onAdopt).toHaveBeenCalledWith(dealer);
    expect(hook.result.current.doc.readOnly).toBe(false);
    expect(hook.result.current.doc.loading).toBe(false);
  });

  it('keeps the version just saved when an older read of it comes back, and takes the read once it is locked', async () => {
    const reads = { [SHOWN]: versionedFields(SHOWN, 'Dealer') };
    const { hook, queryClient, find, onAdopt } = renderThing(reads);
    await shows(hook, SHOWN);
    const saved = { ...versionedFields(SHOWN, 'Dealer'), sys_version: 4 };
    act(() => hook.result.current.doc.keepSaved(saved, hook.result.current.doc.current));
    expect(queryClient.getQueryData(KEYS.find(SHOWN))).toEqual(saved);

    await act(() => queryClient.refetchQueries({ queryKey: KEYS.find(SHOWN) }));
    expect(find).toHaveBeenCalledTimes(2);
    expect(hook.result.current.doc.current?.sys_version).toBe(4);
    expect(onAdopt).toHaveBeenCalledTimes(1);

    reads[SHOWN] = { ...saved, vLocked: true };
    await act(() => queryClient.refetchQueries({ queryKey: KEYS.find(SHOWN) }));
    await waitFor(() => expect(hook.result.current.doc.current?.vLocked).toBe(true));
    expect(hook.result.current.doc.readOnly).toBe(true);
    expect(onAdopt).toHaveBeenCalledTimes(2);
  });

  it('asks before another document drops unsaved changes, and keeps the shown one on No', async () => {
    const { hook, find, create } = renderThing({ [SHOWN]: versionedFields(SHOWN, 'Dealer') }, true);
    await shows(hook, SHOWN);
    let opening: Promise<void> = Promise.resolve();
    act(() => {
      opening = (async () => {
        await hook.result.current.doc.openAsked(OTHER);
      })();
    });
    const question = await confirmation();
    expect(question.textContent).toContain(TEXTS.wouldBeLost);
    fireEvent.click(button('No', question));
    await act(() => opening);
    expect(hook.result.current.search).toBe(`?id=${SHOWN}`);
    expect(hook.result.current.doc.current?._id).toBe(SHOWN);
    expect(find).not.toHaveBeenCalledWith(OTHER, expect.anything());
    expect(create).not.toHaveBeenCalled();
  });

  it("makes a document in the explorer's folder after Yes, then opens it by its address", async () => {
    const reads = { [SHOWN]: versionedFields(SHOWN, 'Dealer'), [OTHER]: versionedFields(OTHER, 'Port') };
    const { hook, create } = renderThing(reads, true);
    await shows(hook, SHOWN);
    let creating: Promise<void> = Promise.resolve();
    act(() => {
      creating = hook.result.current.doc.createIn('Port', 'folder-1');
    });
    fireEvent.click(button('Yes', await confirmation()));
    await act(() => creating);
    expect(create).toHaveBeenCalledWith('Port', 'folder-1');
    await screen.findByText(TEXTS.saved);
    expect(hook.result.current.search).toBe(`?id=${OTHER}`);
    await shows(hook, OTHER);
  });

  it('tells the id of the document made when its toast names it', async () => {
    const reads = { [SHOWN]: versionedFields(SHOWN, 'Dealer'), [OTHER]: versionedFields(OTHER, 'Port') };
    const texts = { wouldBeLost: TEXTS.wouldBeLost, saved: (id: string) => `thing saved, id : ${id}` };
    const { hook } = renderThing(reads, false, texts);
    await shows(hook, SHOWN);
    await act(() => hook.result.current.doc.createIn('Port', 'folder-1'));
    await screen.findByText(`thing saved, id : ${OTHER}`);
  });
});
