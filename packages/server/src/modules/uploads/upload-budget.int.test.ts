import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvSource, importKit } from '../../../test/imports-kit.ts';
import { listenLocal } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { bodyEnd, fieldPart, fileHead, openUpload, partEnd } from '../../../test/upload-client.ts';
import { AppError } from '../../platform/http/errors.ts';
import { uploadBudget } from './upload-budget.ts';

const KiB = 1024;
const BUSY = 'The server is receiving too many files at once. Please try again in a few seconds.';

let t: TestApp;
let url: string;
let token: string;
let pipelineId: string;

beforeAll(async () => {
  t = await createTestApp({ uploadInFlightBytes: 64 * KiB });
  url = await listenLocal(t.app);
  token = (await t.signedIn(['super-admin'])).token;
  pipelineId = await (await importKit(t)).pipeline({ name: 'budget', sources: [csvSource('prices')] });
});

afterAll(async () => {
  await t.services.uploads.settled();
  await t.close();
});

/** The start of an upload: the pipeline's id and the head of a prices file. */
const head = () => Buffer.concat([fieldPart('pipelineId', pipelineId), fileHead('prices', 'prices.csv')]);
/** CSV rows of `bytes` bytes. */
const rows = (bytes: number) => 'P1,1\n'.repeat(Math.floor(bytes / 5));

async function stored(): Promise<number> {
  return (await t.ctx.db.kysely.selectFrom('uploads').select('id').where('pipeline_id', '=', pipelineId).execute()).length;
}

/** An upload that has sent `bytes` of its file and waits, holding them, until it is aborted. */
async function holding(bytes: number, declared?: number) {
  const upload = openUpload(url, token, declared);
  await upload.send(Buffer.concat([head(), Buffer.from('code,price\n'), Buffer.from(rows(bytes))]));
  // The server reads them: give it the moment.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return upload;
}

describe('the bytes of uploads in flight', () => {
  it('counts the bytes each request has sent, refuses past the budget with a retry hint, and gives them back', () => {
    const budget = uploadBudget(100);
    const first = budget.admit(1000);
    first.take(60);
    expect(() => budget.admit(50)).toThrow(AppError);
    try {
      budget.admit(50);
    } catch (error) {
      expect(error).toMatchObject({ status: 503, retryAfterSeconds: 10, message: BUSY });
    }
    // A request that declares nothing is let in while there is room, and refused once what it sends passes the budget.
    const second = budget.admit();
    second.take(30);
    expect(() => second.take(20)).toThrow(AppError);
    first.release();
    first.release();
    second.take(20);
    expect(budget.inFlight()).toBe(50);
    second.release();
    expect(budget.inFlight()).toBe(0);
    // One request alone may pass the budget; while it does, no other gets in.
    const big = budget.admit(500);
    big.take(500);
    expect(() => budget.admit()).toThrow(AppError);
    big.release();
    expect(budget.inFlight()).toBe(0);
  });

  it('answers 503 with Retry-After when an upload would pass what others have sent, and lets it in once they are gone', async () => {
    const before = await stored();
    const first = await holding(40 * KiB);
    // Declared: refused before its body is read.
    const declared = openUpload(url, token, 30 * KiB);
    const refused = await declared.answer;
    declared.abort();
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.body.message).toBe(BUSY);
    // Not declared: let in, and refused once what it sends passes the budget.
    const chunked = openUpload(url, token);
    await chunked.send(Buffer.concat([head(), Buffer.from('code,price\n'), Buffer.from(rows(32 * KiB))]));
    await chunked.send(Buffer.concat([partEnd, bodyEnd]));
    expect((await chunked.finish()).status).toBe(503);
    first.abort();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Every byte given back: a request as large as the budget gets in.
    const taken = openUpload(url, token);
    await taken.send(Buffer.concat([head(), Buffer.from('code,price\n'), Buffer.from(rows(60 * KiB)), partEnd, bodyEnd]));
    expect((await taken.finish()).status).toBe(200);
    expect(await stored()).toBe(before + 1);
  });

  it('counts what a request has sent, not what it declares', async () => {
    // It declares 60 KiB and has sent 4: a 30 KiB upload still fits.
    const first = await holding(4 * KiB, 60 * KiB);
    const body = Buffer.concat([head(), Buffer.from('code,price\n'), Buffer.from(rows(24 * KiB)), partEnd, bodyEnd]);
    const second = openUpload(url, token, body.length);
    await second.send(body);
    expect((await second.finish()).status).toBe(200);
    first.abort();
  });
});
