import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ok, signedInAs } from '../../../test/fake-api.ts';
import { button } from '../../../test/queries.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { FAMILY, vid } from '../../../test/versions-fixtures.ts';
import { VersionBar } from './VersionBar.tsx';

// The graph module (and with it @xyflow/react and elkjs) counts its loads.
const graph = vi.hoisted(() => ({ loads: 0 }));
vi.mock('./VersionGraph.tsx', () => {
  graph.loads += 1;
  return { VersionGraph: () => <p>graph drawn</p> };
});

describe('version graph loading', () => {
  it('loads the graph only when the version selector opens', async () => {
    signedInAs(['manager'], { 'GET /schemas/version': () => ok(FAMILY) });
    const doc = { _id: vid(2), name: 'customer', version: 2, vLocked: false, read_only: false };
    renderWidget(<VersionBar kind="schema" path="/schemas" doc={doc} onOpen={vi.fn()} />);
    await screen.findByText('customer (v.2 - Draft)');
    expect(graph.loads).toBe(0);
    fireEvent.click(button('Versions'));
    await screen.findByText('graph drawn');
    await waitFor(() => expect(graph.loads).toBe(1));
  });
});
