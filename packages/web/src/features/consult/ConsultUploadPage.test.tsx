import '../../../test/dom.ts';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ok, signedInAs } from '../../../test/fake-api.ts';
import { pipeline, source, uploadView } from '../../../test/fixtures.ts';
import { FakeSocket } from '../../../test/live.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { configureLive } from '../../ground/live/configure.ts';

const PID = '00000000-0000-4000-8000-000000000001';
const PIPELINES = {
  staticTypes: { brands: [], locales: [], datakinds: [], productLines: [] },
  pipelines: [
    pipeline(PID, 'Prices', {
      version: 1,
      vLocked: false,
      brand: null,
      locale: null,
      productLine: null,
      datakind: null,
      dataSources: [source('main'), source('extra')],
    }),
  ],
};
const upload = (id: string, status: string) => uploadView(id, PID, { status });

beforeEach(() => {
  configureLive({ createSocket: (auth) => new FakeSocket(auth) });
});

describe('Consult upload', () => {
  it("shows per data source the last uploads, and 'There are no logs.' where there is no upload", async () => {
    signedInAs(['manager'], {
      'GET /users/pipelines': () => ok(PIPELINES),
      'GET /uploads/last-all': () =>
        ok([
          { dataSubKind: 'main', data: [upload('new', 'invalid'), upload('old', 'valid')] },
          { dataSubKind: 'extra', data: [] },
        ]),
    });
    const app = renderApp('/consult/upload');
    await app.opened('/consult/upload');
    fireEvent.click(await screen.findByText('Prices'));
    await screen.findByText('new.csv');
    const card = (title: string) =>
      screen.getByText(title, { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;
    const main = card('main');
    expect(within(main).getByText('old.csv')).toBeDefined();
    expect(within(main).getByLabelText('invalid')).toBeDefined();
    expect(within(main).getByLabelText('valid')).toBeDefined();
    expect(within(main).getByText('new.csv').closest('[aria-selected]')?.getAttribute('aria-selected')).toBe('true');
    expect(within(card('extra')).getByText('There are no logs.')).toBeDefined();
    fireEvent.click(within(main).getByText('old.csv'));
    expect(within(main).getByText('old.csv').closest('[aria-selected]')?.getAttribute('aria-selected')).toBe('true');
  });
});
