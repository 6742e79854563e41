import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImport, buildPipeline, buildUpload } from '../../../test/factories.ts';
import { connectLive, type LiveTestClient, listenLocal } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let boss: string;
let manager: string;
let secret: string;
let url: string;
const clients: LiveTestClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  manager = (await t.signedIn(['manager'])).token;
  secret = (await t.call('POST', '/tags', { token: boss, body: { name: 'Logs secret', type: 'project' } })).body.data._id;
  url = await listenLocal(t.app);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

const hide = (pipelineId: string) =>
  t.call('POST', '/tags/update-document-tags', {
    token: boss,
    body: { id: pipelineId, type: 'pipeline', tags: { read: [[secret]], write: [] } },
  });
const connect = async (token: string) => {
  const c = await connectLive(url, token);
  clients.push(c);
  return c;
};
const messages = (docs: readonly Record<string, unknown>[]) => docs.map((d) => d.message);

describe('live logs of a pipeline the caller may not read', () => {
  it('stop reaching a subscription once the pipeline is closed to the caller by its badges', async () => {
    const { id: closing } = await buildPipeline(t, { name: 'Closing pipeline', isMaster: true });
    const { id: open } = await buildPipeline(t, { name: 'Open pipeline', isMaster: true });
    const closingImport = await buildImport(t, closing);
    const openImport = await buildImport(t, open);
    const c = await connect(manager);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId: closingImport }, subscriptionId: 'closing' });
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId: openImport }, subscriptionId: 'open' });
    await c.waitFor(() => c.inits.length >= 2);
    await t.services.logs.append({ level: 'info', message: 'before', importId: closingImport });
    await c.waitFor(() => c.changes.length >= 1);

    expect((await hide(closing)).status).toBe(200);
    // A subscription takes the change within a second (its verdicts are kept that long).
    await new Promise((r) => setTimeout(r, 1_100));
    await t.services.logs.append({ level: 'info', message: 'after', importId: closingImport });
    await t.services.logs.append({ level: 'info', message: 'control', importId: openImport });
    // Notifications are handled in order: once the control line is here, the one before it was handled.
    await c.waitFor(() => c.changes.some((ch) => ch.data.fullDocument?.message === 'control'));
    expect(c.changes.map((ch) => [ch.subscriptionId, ch.data.fullDocument?.message])).toEqual([
      ['closing', 'before'],
      ['open', 'control'],
    ]);
  });

  it('are left out of what a find or a subscription sends when a line also names a closed pipeline', async () => {
    const { id: open } = await buildPipeline(t, { name: 'Open uploads', isMaster: true });
    const { id: hidden } = await buildPipeline(t, { name: 'Hidden imports', isMaster: true });
    await hide(hidden);
    const upload = await buildUpload(t, open);
    const hiddenImport = await buildImport(t, hidden);
    await t.services.logs.append([
      { level: 'info', message: 'upload only', uploadId: upload },
      { level: 'info', message: 'with the hidden import', uploadId: upload, importId: hiddenImport },
    ]);
    const c = await connect(manager);
    c.socket.emit('find', { collectionName: 'logs', filter: { uploadId: upload }, subscriptionId: 'find' });
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { uploadId: upload }, subscriptionId: 'sub' });
    const found = await c.waitFor(() => c.finds[0]);
    const init = await c.waitFor(() => c.inits[0]);
    expect(messages(found.data)).toEqual(['upload only']);
    expect(messages(init.data)).toEqual(['upload only']);

    await t.services.logs.append({ level: 'info', message: 'hidden later', uploadId: upload, importId: hiddenImport });
    await t.services.logs.append({ level: 'info', message: 'open later', uploadId: upload });
    await c.waitFor(() => c.changes.some((ch) => ch.data.fullDocument?.message === 'open later'));
    expect(c.changes.map((ch) => ch.data.fullDocument?.message)).toEqual(['open later']);

    // A super-admin is sent every line.
    const s = await connect(boss);
    s.socket.emit('find', { collectionName: 'logs', filter: { uploadId: upload }, subscriptionId: 'all' });
    expect(messages((await s.waitFor(() => s.finds[0])).data)).toEqual([
      'upload only',
      'with the hidden import',
      'hidden later',
      'open later',
    ]);
  });
});
