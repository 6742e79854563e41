// A subscription's init and the changes committed around it: each change reaches the client once,
// in the init or after it. The init's read is held through the logs service the hub reads with.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildImport, buildPipeline } from '../../../test/factories.ts';
import { gate } from '../../../test/gate.ts';
import { connectLive, type LiveTestClient, listenLocal } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let url: string;
let token: string;
const clients: LiveTestClient[] = [];

/** Lets in-flight notifications arrive before asserting that nothing more came. */
const settle = () => new Promise((r) => setTimeout(r, 150));

beforeAll(async () => {
  t = await createTestApp();
  url = await listenLocal(t.app);
  token = (await t.signedIn(['manager'])).token;
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

/** Holds the next logs read of the hub: `started` opens when it is reached, `release` lets it go on. */
function holdLogsRead(when: 'before' | 'after') {
  const started = gate();
  const released = gate();
  const read = t.services.logs.find;
  vi.spyOn(t.services.logs, 'find').mockImplementationOnce(async (selection, limit) => {
    if (when === 'before') {
      started.open();
      await released.opened;
      return read(selection, limit);
    }
    const docs = await read(selection, limit);
    started.open();
    await released.opened;
    return docs;
  });
  return { started: started.opened, release: released.open };
}

async function subscribedImport(subscriptionId: string) {
  const { id: pipelineId } = await buildPipeline(t);
  const importId = await buildImport(t, pipelineId);
  await t.services.logs.append({ level: 'info', message: 'first', importId });
  const c = await connectLive(url, token);
  clients.push(c);
  c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId, token });
  return { c, importId };
}

describe('live channel: changes around an init', () => {
  // The first subscription of this app: the hub starts listening with it, before its init is read.
  it('sends right after the init a line committed once the init was read but before it was sent', async () => {
    const held = holdLogsRead('after');
    const { c, importId } = await subscribedImport('after');
    await held.started;
    await t.services.logs.append({ level: 'info', message: 'during', importId });
    held.release();
    await c.waitFor(() => c.changes[0]);
    expect(c.events).toEqual(['init', 'change']);
    expect(c.inits[0]?.data.map((d) => d.message)).toEqual(['first']);
    expect(c.changes[0]?.data).toMatchObject({ operationType: 'insert', fullDocument: { message: 'during' } });

    await t.services.logs.append({ level: 'info', message: 'later', importId });
    await c.waitFor(() => c.changes[1]);
    expect(c.changes.map((ch) => ch.data.fullDocument?.message)).toEqual(['during', 'later']);
  });

  it('holds in the init, and only there, a line committed before the init is read', async () => {
    const held = holdLogsRead('before');
    const { c, importId } = await subscribedImport('before');
    await held.started;
    await t.services.logs.append({ level: 'info', message: 'during', importId });
    held.release();
    const init = await c.waitFor(() => c.inits[0]);
    expect(init.data.map((d) => d.message)).toEqual(['first', 'during']);
    await settle();
    expect(c.changes).toHaveLength(0);

    await t.services.logs.append({ level: 'info', message: 'later', importId });
    await c.waitFor(() => c.changes[0]);
    expect(c.changes.map((ch) => ch.data.fullDocument?.message)).toEqual(['later']);
  });
});
