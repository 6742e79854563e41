// The browser's live client (packages/web/src/app/live) against the real hub: what the hooks rely on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient } from '../../../../web/src/ground/live/live-client.ts';
import { socketIoFactory } from '../../../../web/src/ground/live/live-socket.ts';
import type { LiveStatus, TokenGetter } from '../../../../web/src/ground/live/live-types.ts';
import { assignPipeline, buildImport, buildPipeline, buildUpload } from '../../../test/factories.ts';
import { listenLocal, waitFor } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  url = await listenLocal(t.app);
});

afterAll(async () => {
  await t.close();
});

function browserClient(token: TokenGetter) {
  return new LiveClient({
    getToken: token,
    createSocket: socketIoFactory(url),
    logger: { log: () => {}, warn: () => {}, error: () => {} },
    idleCloseMs: 0,
  });
}

describe('the web live client against the hub', () => {
  it('follows logs and uploads, shares identical filters, and stops when the last subscriber leaves', async () => {
    const { token } = await t.signedIn(['manager']);
    const k = t.ctx.db.kysely;
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    const uploadId = await buildUpload(t, pipelineId);
    await t.services.logs.append({ level: 'info', message: 'before', importId });
    const client = browserClient(() => token);

    const a: string[] = [];
    const b: string[] = [];
    const statuses: LiveStatus[] = [];
    const ha = client.subscribe(
      'logs',
      { filter: { importId } },
      {
        init: (docs) => a.push(...docs.map((d) => `init ${d.message}`)),
        insert: (d) => a.push(`insert ${d.message}`),
        status: (s) => statuses.push(s),
      },
    );
    const hb = client.subscribe(
      'logs',
      { filter: { importId: [importId] }, projection: { message: 1 } },
      { init: (docs) => b.push(...docs.map((d) => `init ${d.message}`)), insert: (d) => b.push(`insert ${d.message}`) },
    );
    const uploads: string[] = [];
    const hu = client.subscribe(
      'uploads',
      { filter: { _id: uploadId } },
      {
        init: (docs) => uploads.push(...docs.map((d) => `init ${String(d.status)}`)),
        update: (d) => uploads.push(`update ${String(d.status)}`),
      },
    );
    // The hub authorises and reads each subscription on its own, so the uploads one may still be
    // pending when the logs init arrives; a change committed then is in its init, not a change.
    await waitFor(() => statuses.includes('live') && a.length > 0 && b.length > 0 && uploads.length > 0);
    expect(client.serverSubscriptions()).toHaveLength(2);
    expect(uploads).toEqual(['init pending']);

    await t.services.logs.append({ level: 'info', message: 'after', importId });
    await k.updateTable('uploads').set({ status: 'valid' }).where('id', '=', uploadId).execute();
    await waitFor(() => a.includes('insert after') && b.includes('insert after') && uploads.includes('update valid'));
    expect(a).toEqual(['init before', 'insert after']);
    expect(b).toEqual(['init before', 'insert after']);
    expect(uploads).toEqual(['init pending', 'update valid']);

    for (const h of [ha, hb, hu]) client.unsubscribe(h);
    await waitFor(() => !client.open);
  });

  it('gives a subscription still being set up the change committed meanwhile in its init, not as a change', async () => {
    const { token } = await t.signedIn(['manager']);
    const k = t.ctx.db.kysely;
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    const uploadId = await buildUpload(t, pipelineId);
    // Holding the token holds the client's next message: the uploads subscribe.
    let held: Promise<void> | undefined;
    const client = browserClient(async () => {
      await held;
      return token;
    });
    const lines: string[] = [];
    const hl = client.subscribe(
      'logs',
      { filter: { importId } },
      { status: (s) => lines.push(s), insert: (d) => lines.push(String(d.message)) },
    );
    await waitFor(() => lines.includes('live'));
    let release = () => {};
    held = new Promise((resolve) => {
      release = resolve;
    });

    const seen: string[] = [];
    const hu = client.subscribe(
      'uploads',
      { filter: { _id: uploadId } },
      {
        status: (s) => seen.push(s),
        init: (docs) => seen.push(...docs.map((d) => `init ${String(d.status)}`)),
        update: (d) => seen.push(`update ${String(d.status)}`),
      },
    );
    await k.updateTable('uploads').set({ status: 'valid' }).where('id', '=', uploadId).execute();
    await t.services.logs.append({ level: 'info', message: 'meanwhile', importId });
    // Notifications are handled in commit order: the upload's was handled before this line arrived.
    await waitFor(() => lines.includes('meanwhile'));
    expect(seen).toEqual(['connecting']);

    release();
    await waitFor(() => seen.includes('live'));
    expect(seen).toEqual(['connecting', 'live', 'init valid']);
    await k.updateTable('uploads').set({ status: 'invalid' }).where('id', '=', uploadId).execute();
    await waitFor(() => seen.includes('update invalid'));
    for (const h of [hl, hu]) client.unsubscribe(h);
  });

  it('reads once with find, and reports a refused subscription as an error', async () => {
    const { user, token } = await t.signedIn(['user']);
    const mine = await buildPipeline(t);
    const other = await buildPipeline(t);
    await assignPipeline(t, user.id, mine.familyId);
    const myImport = await buildImport(t, mine.id);
    const otherImport = await buildImport(t, other.id);
    await t.services.logs.append({ level: 'success', message: 'done', importId: myImport });
    const client = browserClient(() => token);

    await expect(client.find('logs', { filter: { importId: myImport } })).resolves.toMatchObject([
      { message: 'done', level: 'success' },
    ]);
    await expect(client.find('logs', { filter: { importId: otherImport } })).rejects.toThrow('You are not allowed to do this.');

    const seen: { status: LiveStatus; message: string | undefined }[] = [];
    const h = client.subscribe(
      'logs',
      { filter: { importId: otherImport } },
      { status: (status, message) => seen.push({ status, message }) },
    );
    await waitFor(() => seen.some((s) => s.status === 'error'));
    expect(seen.at(-1)).toEqual({ status: 'error', message: 'You are not allowed to do this.' });
    client.unsubscribe(h);
  });

  it('marks its subscriptions disconnected when the session is revoked, and follows again after a new sign-in', async () => {
    const manager = await t.signedIn(['manager']);
    let token: string | null = manager.token;
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    const client = new LiveClient({
      getToken: () => token,
      createSocket: socketIoFactory(url),
      logger: { log: () => {}, warn: () => {}, error: () => {} },
      retryDelayMs: () => 50,
      idleCloseMs: 0,
    });
    const statuses: LiveStatus[] = [];
    const lines: string[] = [];
    const h = client.subscribe(
      'logs',
      { filter: { importId } },
      {
        status: (s) => statuses.push(s),
        init: (docs) => lines.push(`init ${docs.length}`),
        insert: (d) => lines.push(String(d.message)),
      },
    );
    await waitFor(() => statuses.at(-1) === 'live');
    await t.call('POST', '/users/logout', { token: manager.token });
    await waitFor(() => statuses.at(-1) === 'disconnected');
    token = await t.login(manager.user.user_name);
    await waitFor(() => statuses.at(-1) === 'live', 10_000);
    await t.services.logs.append({ level: 'info', message: 'back', importId });
    await waitFor(() => lines.includes('back'));
    expect(lines.filter((l) => l.startsWith('init'))).toHaveLength(2);
    client.unsubscribe(h);
  });
});
