import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope, ok, signedInAs } from '../../../test/fake-api.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { versionedFields } from '../../../test/versions-fixtures.ts';

const FORMAT = '00000000-0000-4000-8000-000000000001';
const SLUGIFY = '00000000-0000-4000-8000-000000000002';
const TEAM = '00000000-0000-4000-8000-000000000100';
const EDITORS = '00000000-0000-4000-8000-000000000101';

function entry(id: string, functionName: string, over: Record<string, unknown> = {}) {
  const { name: _name, ...fields } = versionedFields(id, functionName);
  return {
    ...fields,
    functionName,
    documentation: '',
    input: '',
    output: '',
    error: '',
    modules: [],
    ...over,
  };
}

const LIST = [
  entry(FORMAT, 'formatPrice', {
    version: 2,
    vLocked: true,
    documentation: 'Formats a price with its currency.',
    input: 'amount (number), currency (ISO code)',
    output: 'the price as text',
    error: 'throws on an unknown currency',
    tags: { read: [[TEAM]], write: [[TEAM, EDITORS]] },
    modules: [{ name: 'lodash', version: '4.17.21' }],
  }),
  entry(SLUGIFY, 'slugify', { documentation: 'Makes a slug.' }),
];

const TAGS = [
  { _id: TEAM, name: 'Team', type: 'project', color: null, isHidden: false, isMetadata: false, metadata: null },
  { _id: EDITORS, name: 'Editors', type: 'project', color: null, isHidden: false, isMetadata: false, metadata: null },
];

const option = (name: RegExp) => screen.findByRole('option', { name });

describe('Documentation page', () => {
  it('lists the SDK functions and shows the chosen one: documentation, input, output, error, version, read and write badges', async () => {
    const server = signedInAs(['manager'], { 'GET /components/documentation': () => ok(LIST), 'GET /tags/list': () => ok(TAGS) });
    const app = renderApp('/manage/documentation');
    await app.opened('/manage/documentation');
    expect((await option(/slugify/)).textContent).toBe('slugify (v.1 - Draft)');
    fireEvent.click(await option(/formatPrice/));
    const shown = await screen.findByRole('region', { name: 'formatPrice' });
    await waitFor(() => expect(shown.textContent).toContain('Read'));
    const text = shown.textContent ?? '';
    for (const part of [
      'Formats a price with its currency.',
      'amount (number), currency (ISO code)',
      'the price as text',
      'throws on an unknown currency',
      '(v.2 - Prod)',
      'lodash@4.17.21',
    ])
      expect(text).toContain(part);
    await waitFor(() => expect(shown.textContent).toContain('Team & Editors'));
    expect(server.count('GET /components/documentation')).toBe(1);
  });

  it('says a function without badges is open to all, and filters the list by name', async () => {
    signedInAs(['super-admin'], { 'GET /components/documentation': () => ok(LIST), 'GET /tags/list': () => ok(TAGS) });
    renderApp('/manage/documentation');
    fireEvent.click(await option(/slugify/));
    const shown = await screen.findByRole('region', { name: 'slugify' });
    expect(shown.textContent).toContain('Open to all');
    fireEvent.change(screen.getByLabelText('Filter'), { target: { value: 'FORMAT' } });
    await waitFor(() => expect(screen.queryByRole('option', { name: /slugify/ })).toBeNull());
    expect(screen.getByRole('option', { name: /formatPrice/ })).toBeTruthy();
  });

  it("shows the server's message when the list cannot be read", async () => {
    signedInAs(['manager'], { 'GET /components/documentation': () => envelope(40300, 'Forbidden', null, 403) });
    renderApp('/manage/documentation');
    expect((await screen.findByRole('alert')).textContent).toContain('Forbidden');
  });
});
