import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvSource, importKit, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// What a run takes: every enabled valid upload the wizard lists, those still being checked waited for.

let t: TestApp;
let kit: Awaited<ReturnType<typeof importKit>>;
let manager: { token: string };

/** Writes each input row's code to the logs, so a test sees which uploads the run took, in order. */
const CODES = `ctx.output.out = ctx.input.prices;
ctx.log.info('codes ' + ctx.input.prices.map((r) => r.code).join(','));`;

beforeAll(async () => {
  t = await createTestApp();
  kit = await importKit(t);
  manager = { token: (await t.signedIn(['manager'])).token };
  await t.services.imports.startWorking({ concurrency: 1 });
});
afterAll(async () => {
  await t.close();
});

async function pricesPipeline(name: string): Promise<string> {
  const component = await kit.component(CODES, ['prices'], ['out']);
  return kit.pipeline({ name, component, sources: [csvSource('prices')], sinks: [sink('out')] });
}

const uploadPrice = (pipelineId: string, code: string) =>
  kit.upload(manager.token, pipelineId, 'prices', `code,price\n${code},1\n`, `${code}.csv`);

/** Puts an upload back in the state of one being checked, or gives its check's verdict. */
const setStatus = (id: string, status: 'processing' | 'valid' | 'invalid') =>
  t.ctx.db.kysely.updateTable('uploads').set({ status }).where('id', '=', id).execute();

async function runNow(pipelineId: string): Promise<string> {
  const res = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } });
  expect(res.status).toBe(200);
  return res.body.data.importId;
}

/** Waits until the import's logs hold a line starting with `start`. */
async function lineStarting(importId: string, start: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = (await kit.messages(importId)).find((m) => m.startsWith(start));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no line '${start}…' in the logs of ${importId}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A pipeline with an upload of each code, the last one put back to being checked, and an import
 * of it run now and waiting for that check: answers the import and the upload being checked.
 */
async function runWhileChecking(name: string, codes: string[]) {
  const pipelineId = await pricesPipeline(name);
  let checking = '';
  for (const code of codes) checking = await uploadPrice(pipelineId, code);
  await setStatus(checking, 'processing');
  const importId = await runNow(pipelineId);
  const waiting = await lineStarting(importId, 'Waiting up to');
  return { importId, checking, waiting };
}

describe('the uploads a run takes', () => {
  it('waits for an upload still being checked when the run starts and takes it once valid', async () => {
    const { importId, checking, waiting } = await runWhileChecking('inputs checking', ['A', 'B']);
    expect(waiting).toBe('Waiting up to 60 s for the check of B.csv.');
    expect((await kit.waitFor(importId, ['busy', 'done', 'failed'])).state).toBe('busy');
    await setStatus(checking, 'valid');

    expect((await kit.waitFor(importId, ['done', 'failed'])).state).toBe('done');
    const messages = await kit.messages(importId);
    expect(messages).toContain('codes A,B');
    expect(messages).toContain('Input prices: 1 row from B.csv.');
  });

  it('skips an upload whose check finds it invalid, saying why, and takes the others', async () => {
    const { importId, checking } = await runWhileChecking('inputs turning invalid', ['A', 'B']);
    await setStatus(checking, 'invalid');

    expect((await kit.waitFor(importId, ['done', 'failed'])).state).toBe('done');
    const messages = await kit.messages(importId);
    expect(messages).toContain('Input prices: B.csv skipped: its check found it invalid.');
    expect(messages).toContain('codes A');
  });

  it('takes every enabled valid upload, more than the last 10, oldest first: those the wizard lists', async () => {
    const pipelineId = await pricesPipeline('inputs many');
    const codes = Array.from({ length: 12 }, (_, i) => `C${String(i + 1).padStart(2, '0')}`);
    const ids = [];
    for (const code of codes) ids.push(await uploadPrice(pipelineId, code));
    const off = await uploadPrice(pipelineId, 'OFF');
    await t.call('POST', '/uploads/disable', { token: manager.token, body: { id: off } });

    // The wizard's list: every upload the run takes, the older ones beyond the last 10 too.
    const lists = await t.call('GET', `/uploads/last-all?pipelineId=${pipelineId}`, { token: manager.token });
    const listed: { _id: string; enabled: boolean; status: string }[] = lists.body.data[0].data;
    const shown = listed.filter((u) => u.enabled && u.status === 'valid').map((u) => u._id);
    expect(new Set(shown)).toEqual(new Set(ids));

    const importId = await runNow(pipelineId);
    expect((await kit.waitFor(importId, ['done', 'failed'])).state).toBe('done');
    const messages = await kit.messages(importId);
    expect(messages).toContain(`codes ${codes.join(',')}`);
    expect(messages).toContain('Running the component on 12 input rows.');
    expect(messages.some((m) => m.includes('Waiting up to'))).toBe(false);
  });

  it("fails with 'No enabled valid upload for data source …' only when none exists", async () => {
    const { importId, checking } = await runWhileChecking('inputs none', ['A']);
    await setStatus(checking, 'invalid');

    expect((await kit.waitFor(importId, ['done', 'failed'])).state).toBe('failed');
    const messages = await kit.messages(importId);
    expect(messages).toContain('Input prices: A.csv skipped: its check found it invalid.');
    expect(messages).toContain('No enabled valid upload for data source prices.');

    const empty = await runNow(await pricesPipeline('inputs empty'));
    expect((await kit.waitFor(empty, ['done', 'failed'])).state).toBe('failed');
    expect(await kit.messages(empty)).toContain('No enabled valid upload for data source prices.');
  });

  it('marks the uploads a done run took as imported, and the next run takes only newer ones unless switched on again', async () => {
    const pipelineId = await pricesPipeline('inputs once');
    const first = await uploadPrice(pipelineId, 'A');
    const firstRun = await runNow(pipelineId);
    expect((await kit.waitFor(firstRun, ['done', 'failed'])).state).toBe('done');

    const listOf = async () => {
      const res = await t.call('GET', `/uploads/last-all?pipelineId=${pipelineId}`, { token: manager.token });
      return res.body.data[0].data as { _id: string; enabled: boolean; importedAt: string | null; importedBy: string | null }[];
    };
    const marked = (await listOf()).find((u) => u._id === first);
    expect(marked).toMatchObject({ enabled: false, importedBy: firstRun });
    expect(Date.parse(marked?.importedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

    await uploadPrice(pipelineId, 'B');
    const second = await runNow(pipelineId);
    expect((await kit.waitFor(second, ['done', 'failed'])).state).toBe('done');
    expect(await kit.messages(second)).toContain('codes B');

    // Switched on again, the imported upload goes into the next run beside the new one.
    await t.call('POST', '/uploads/disable', { token: manager.token, body: { id: first, enabled: true } });
    await uploadPrice(pipelineId, 'C');
    const third = await runNow(pipelineId);
    expect((await kit.waitFor(third, ['done', 'failed'])).state).toBe('done');
    expect(await kit.messages(third)).toContain('codes A,C');
  });

  it('leaves the uploads of a failed run for the next one', async () => {
    const component = await kit.component("throw new Error('boom');", ['prices'], ['out']);
    const pipelineId = await kit.pipeline({
      name: 'inputs failing',
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out')],
    });
    const id = await uploadPrice(pipelineId, 'A');
    const run = await runNow(pipelineId);
    expect((await kit.waitFor(run, ['done', 'failed'])).state).toBe('failed');
    const [row] = await t.services.uploads.current([id]);
    expect(row).toMatchObject({ enabled: true, importedAt: null, importedBy: null });
  });

  it('labels the files sent from the testing view', async () => {
    const pipelineId = await pricesPipeline('inputs testing');
    const fromWizard = await uploadPrice(pipelineId, 'A');
    const fromTesting = await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nB,1\n', 'B.csv', {
      sentFrom: 'testing',
    });
    const rows = await t.services.uploads.current([fromWizard, fromTesting]);
    expect(Object.fromEntries(rows.map((r) => [r._id, r.sentFrom]))).toEqual({
      [fromWizard]: 'wizard',
      [fromTesting]: 'testing',
    });
  });

  it('stops waiting when the run is stopped', async () => {
    const { importId } = await runWhileChecking('inputs stopped', ['A']);
    const stopped = Date.now();
    expect((await t.call('POST', '/imports/abort', { token: manager.token, body: { importId } })).status).toBe(200);
    expect((await kit.waitFor(importId, ['done', 'failed', 'aborted'])).state).toBe('aborted');
    expect(Date.now() - stopped).toBeLessThan(5000);
  });
});
