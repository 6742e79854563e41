import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, ok, signedInAs } from '../../../test/fake-api.ts';
import { dialog, queryButton } from '../../../test/queries.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { FAMILY, vid } from '../../../test/versions-fixtures.ts';
import { VersionSelectorDialog } from './VersionSelectorDialog.tsx';

// When the layout was ready and when the view was fitted, with which options.
const timing = vi.hoisted(() => ({ laidOut: 0, fits: [] as { at: number; options: unknown }[] }));

vi.mock('./version-layout.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./version-layout.ts')>();
  return {
    ...actual,
    layoutVersions: async (...args: Parameters<typeof actual.layoutVersions>) => {
      const places = await actual.layoutVersions(...args);
      timing.laidOut = performance.now();
      return places;
    },
  };
});

vi.mock('@xyflow/react', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@xyflow/react')>();
  return {
    ...actual,
    useReactFlow: () => {
      const flow = actual.useReactFlow();
      return {
        ...flow,
        fitView: (options: unknown) => {
          timing.fits.push({ at: performance.now(), options });
          return flow.fitView(options as Parameters<typeof flow.fitView>[0]);
        },
      };
    },
  };
});

function show(answer: () => Response = () => ok(FAMILY), currentId = vid(2)) {
  const server = signedInAs(['manager'], { 'GET /components/version': answer });
  const onSelect = vi.fn();
  const onClose = vi.fn();
  renderWidget(<VersionSelectorDialog open path="/components" currentId={currentId} onSelect={onSelect} onClose={onClose} />);
  return { server, onSelect, onClose };
}

const node = (n: number) => document.querySelector<HTMLElement>(`[data-testid="rf__node-${vid(n)}"]`);
const box = (n: number) => node(n)?.querySelector<HTMLElement>('.gdb-version-node');

describe('version selector dialog', () => {
  // A test that lasts past the fit's delay has fitted its own view: each test counts its own.
  beforeEach(() => {
    timing.laidOut = 0;
    timing.fits.length = 0;
  });

  it("draws the family in a 'Select a version' dialog 75% wide: 'V {n}' with date and time, Prod and Draft apart, the current one highlighted", async () => {
    const { server } = show();
    const modal = await dialog('Select a version');
    expect(modal.style.width).toBe('75%');
    await waitFor(() => expect(box(4)).toBeDefined());
    expect(new URLSearchParams(server.calls.find((c) => c.path === '/components/version')?.search).get('id')).toBe(vid(2));
    expect(box(1)?.textContent).toMatch(/^V 1\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(box(1)?.className).toContain('gdb-version-node--prod');
    expect(box(3)?.className).toContain('gdb-version-node--draft');
    expect(box(2)?.className).toContain('gdb-version-node--current');
    expect(box(3)?.className).not.toContain('gdb-version-node--current');
    expect(node(2)?.getAttribute('aria-label')).toMatch(/^V 2 - Draft, .*, current version$/);
  });

  it('joins each version to its parents, laid out by elkjs with parents above, and fits the view 100 ms after drawing', async () => {
    show();
    await waitFor(() => expect(document.querySelectorAll('.react-flow__edge')).toHaveLength(4));
    for (const [from, to] of [
      [1, 2],
      [1, 3],
      [2, 4],
      [3, 4],
    ]) {
      expect(document.querySelector(`[data-testid="rf__edge-${vid(from as number)}->${vid(to as number)}"]`)).not.toBeNull();
    }
    const top = (n: number) => Number(/translate\([^,]+,\s*([-\d.]+)px\)/.exec(node(n)?.style.transform ?? '')?.[1]);
    expect(top(1)).toBeLessThan(top(2));
    expect(top(2)).toBeLessThan(top(4));
    expect(top(2)).toBe(top(3));
    await waitFor(() => expect(timing.fits.length).toBeGreaterThan(0));
    expect(timing.fits[0]?.options).toEqual({ padding: '20px', maxZoom: 1.5 });
    expect((timing.fits[0]?.at ?? 0) - timing.laidOut).toBeGreaterThanOrEqual(95);
  });

  it('double-click selects a version and closes the dialog', async () => {
    const { onSelect, onClose } = show();
    await waitFor(() => expect(node(3)).not.toBeNull());
    fireEvent.doubleClick(node(3) as HTMLElement);
    expect(onClose).toHaveBeenCalled();
    expect(onSelect).toHaveBeenCalledWith(vid(3), 3);
  });

  it('Open selects the chosen version, chosen by click or by the keyboard; Cancel clears the choice', async () => {
    const { onSelect, onClose } = show();
    await waitFor(() => expect(node(1)).not.toBeNull());
    const open = () => queryButton('Open');
    expect(open()?.disabled).toBe(true);
    fireEvent.click(node(1) as HTMLElement);
    await waitFor(() => expect(open()?.disabled).toBe(false));
    expect(box(1)?.className).toContain('gdb-version-node--selected');
    fireEvent.click(queryButton('Cancel') as HTMLElement);
    await waitFor(() => expect(open()?.disabled).toBe(true));
    expect(onClose).not.toHaveBeenCalled();

    expect(node(4)?.tabIndex).toBe(0);
    fireEvent.keyDown(node(4) as HTMLElement, { key: 'Enter' });
    await waitFor(() => expect(open()?.disabled).toBe(false));
    fireEvent.click(open() as HTMLElement);
    expect(onSelect).toHaveBeenCalledWith(vid(4), 4);
    expect(onClose).toHaveBeenCalled();
  });

  it('Enter on a focused version selects it, and Enter again opens it', async () => {
    const { onSelect, onClose } = show();
    await waitFor(() => expect(node(3)).not.toBeNull());
    fireEvent.keyDown(node(3) as HTMLElement, { key: 'Enter' });
    await waitFor(() => expect(queryButton('Open')?.disabled).toBe(false));
    expect(onSelect).not.toHaveBeenCalled();
    fireEvent.keyDown(node(3) as HTMLElement, { key: 'Enter' });
    expect(onSelect).toHaveBeenCalledWith(vid(3), 3);
    expect(onClose).toHaveBeenCalled();
  });

  it('Close closes without a choice', async () => {
    const { onSelect, onClose } = show();
    fireEvent.click((await screen.findByText('Close')).closest('button') as HTMLElement);
    expect(onClose).toHaveBeenCalled();
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('shows the server message when the versions cannot be read', async () => {
    show(() => envelope(40400, 'Document not found', null, 404));
    await screen.findByText('Document not found');
  });
});
