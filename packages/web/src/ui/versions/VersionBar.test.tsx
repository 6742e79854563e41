import '../../../test/dom.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { envelope, type Handler, ok, signedInAs } from '../../../test/fake-api.ts';
import { button, confirmation, dialog, queryButton } from '../../../test/queries.ts';
import { renderWidget } from '../../../test/render-widget.tsx';
import { FAMILY, report, vid } from '../../../test/versions-fixtures.ts';
import type { VersionPath } from '../../ground/calls/versions.ts';
import { VersionBar } from './VersionBar.tsx';
import type { VersionedDoc } from './versioned-doc.ts';

const DRAFT: VersionedDoc = { _id: vid(2), name: 'customer', version: 2, vLocked: false, read_only: false };
const LOCKED: VersionedDoc = { ...DRAFT, _id: vid(1), version: 1, vLocked: true };

function show(
  doc: VersionedDoc | null,
  routes: Record<string, Handler> = {},
  more: { dirty?: boolean; path?: VersionPath } = {},
) {
  const server = signedInAs(['manager'], routes);
  const onOpen = vi.fn();
  const onChanged = vi.fn();
  renderWidget(
    <VersionBar
      kind="schema"
      path={more.path ?? '/schemas'}
      doc={doc}
      dirty={more.dirty ?? false}
      onOpen={onOpen}
      onChanged={onChanged}
    />,
  );
  return { server, onOpen, onChanged };
}

/** Answers the open question with Yes or No. */
async function answer(text: string, yes: boolean) {
  const question = await confirmation();
  expect(question.textContent).toContain(text);
  expect(question.textContent).toContain('Confirmation');
  fireEvent.click(button(yes ? 'Yes' : 'No', question));
  await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).toBeNull());
}

describe('version bar', () => {
  it("labels a draft '(v.{n} - Draft)' and a locked version '(v.{n} - Prod)', with the buttons each allows", () => {
    show(DRAFT);
    expect(screen.getByText('customer (v.2 - Draft)')).toBeDefined();
    expect(['Lock', 'New version', 'Delete', 'Versions', 'Update'].map((n) => !!queryButton(n))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(screen.getByRole('group', { name: 'Version' })).toBeDefined();
  });

  it('offers Unlock, saying that it makes a new draft version, but neither Lock nor Delete on a locked version', () => {
    show(LOCKED);
    expect(screen.getByText('customer (v.1 - Prod)')).toBeDefined();
    expect(queryButton('Unlock')).toBeDefined();
    // What Unlock does, told beside the spec's word: read with the button and shown on hover.
    expect(button('Unlock').getAttribute('aria-describedby')).toBeTruthy();
    const hint = document.getElementById(button('Unlock').getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toBe('Makes a new draft version from this locked one, which stays locked.');
    expect(button('Unlock').title).toBe(hint?.textContent);
    expect(queryButton('Lock')).toBeUndefined();
    expect(queryButton('Delete')).toBeUndefined();
  });

  it("reads 'Document not found' without a document", () => {
    show(null);
    expect(screen.getByText('Document not found')).toBeDefined();
  });

  it('allows only Versions on a read-only version', () => {
    show({ ...DRAFT, read_only: true });
    expect(['Lock', 'New version', 'Delete', 'Update'].map((n) => button(n).disabled)).toEqual([true, true, true, true]);
    expect(button('Versions').disabled).toBe(false);
  });

  it("locks after the confirmation, with force when asked: 'Version {n} locked'", async () => {
    const { server, onChanged } = show(DRAFT, { 'POST /schemas/version/lock': () => ok({ locked: [] }) });
    fireEvent.click(button('Lock'));
    await answer('Lock version 2 ?', false);
    expect(server.count('POST /schemas/version/lock')).toBe(0);

    fireEvent.click(button('Lock'));
    const question = await confirmation();
    fireEvent.click(screen.getByLabelText('Also lock the drafts it depends on'));
    fireEvent.click(button('Yes', question));
    await screen.findByText('Version 2 locked');
    expect(server.calls.find((c) => c.path === '/schemas/version/lock')?.body).toEqual({ id: vid(2), force: true });
    expect(onChanged).toHaveBeenCalled();
  });

  it('offers to lock the country pipelines of a master pipeline, and only there', async () => {
    const master = { ...DRAFT, isMaster: true };
    const { server } = show(master, { 'POST /pipelines/version/lock': () => ok({ locked: [] }) }, { path: '/pipelines' });
    fireEvent.click(button('Lock'));
    const question = await confirmation();
    fireEvent.click(screen.getByLabelText('Also lock its country pipelines'));
    fireEvent.click(button('Yes', question));
    await screen.findByText('Version 2 locked');
    expect(server.calls.find((c) => c.path === '/pipelines/version/lock')?.body).toEqual({
      id: vid(2),
      force: false,
      country: true,
    });
  });

  it('does not offer the country pipelines for a country pipeline', async () => {
    show({ ...DRAFT, isMaster: false }, {}, { path: '/pipelines' });
    fireEvent.click(button('Lock'));
    await confirmation();
    expect(screen.queryByLabelText('Also lock its country pipelines')).toBeNull();
  });

  it('asks about the modifications not saved before a lock, and shows a refusal', async () => {
    const refusal = 'It depends on drafts; lock them first or lock with force: address (v.1 - Draft)';
    const { onChanged } = show(
      DRAFT,
      { 'POST /schemas/version/lock': () => envelope(40900, refusal, null, 409) },
      { dirty: true },
    );
    fireEvent.click(button('Lock'));
    await answer('Some modifications are not saved before lock, do you want to continue ?', true);
    await screen.findByText(refusal);
    expect(onChanged).not.toHaveBeenCalled();
  });

  it("makes a new version after the confirmation and opens it: 'Version {n} created'", async () => {
    const made = { _id: vid(3), kind: 'component', familyId: vid(9), name: 'customer', version: 3, vLocked: false };
    const { server, onOpen } = show(DRAFT, { 'POST /components/version/new': () => ok(made) }, { path: '/components' });
    fireEvent.click(button('New version'));
    await answer('Create a new version from version 2 ?', true);
    await screen.findByText('Version 3 created');
    expect(server.calls.find((c) => c.path === '/components/version/new')?.body).toEqual({ id: vid(2) });
    expect(onOpen).toHaveBeenCalledWith(vid(3));
  });

  it('unlocks a locked version by making a draft copy', async () => {
    const made = { _id: vid(5), kind: 'schema', familyId: vid(9), name: 'customer', version: 5, vLocked: false };
    const { onOpen } = show(LOCKED, { 'POST /schemas/version/new': () => ok(made) });
    fireEvent.click(button('Unlock'));
    await answer('Unlock version 1 ? A new draft version is created from it.', true);
    await screen.findByText('Version 5 created');
    expect(onOpen).toHaveBeenCalledWith(vid(5));
  });

  it("deletes a draft after the confirmation and opens the version the server names: 'Version {n} deleted'", async () => {
    let reply = envelope(40900, 'This schema is used by orders (v.1 - Prod).', null, 409);
    const { onOpen } = show(DRAFT, { 'POST /schemas/version/delete': () => reply });
    fireEvent.click(button('Delete'));
    await answer('Delete version 2 ?', true);
    await screen.findByText('This schema is used by orders (v.1 - Prod).');
    expect(onOpen).not.toHaveBeenCalled();

    reply = ok({ _id: vid(2), version: 2, next: null });
    fireEvent.click(button('Delete'));
    await answer('Delete version 2 ?', true);
    await screen.findByText('Version 2 deleted');
    expect(onOpen).toHaveBeenCalledWith(null);
  });

  it('opens another version chosen in the graph after the confirmation, and gives the focus back to Versions', async () => {
    const { onOpen } = show(DRAFT, { 'GET /schemas/version': () => ok(FAMILY) }, { dirty: true });
    const versions = button('Versions');
    versions.focus();
    fireEvent.click(versions);
    await dialog('Select a version');
    const node = await waitFor(() => {
      const found = document.querySelector<HTMLElement>(`[data-testid="rf__node-${vid(1)}"]`);
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    fireEvent.doubleClick(node);
    await answer('Open version 1 ? The modifications not saved would be lost.', true);
    expect(onOpen).toHaveBeenCalledWith(vid(1));
    await waitFor(() => expect(document.activeElement).toBe(versions));
  });

  it('opens the update preview titled with the type, name and version, and gives the focus back to Update', async () => {
    show(DRAFT, { 'GET /schemas/version/compute': () => ok(report(vid(2), [])) });
    const update = button('Update');
    update.focus();
    fireEvent.click(update);
    const preview = await dialog('Schema customer (v.2 - Draft)');
    await screen.findByText('Every dependency is on its newest version.');
    fireEvent.click(button('Cancel', preview));
    await waitFor(() => expect(document.activeElement).toBe(update));
  });
});
