import '../../../test/dom.ts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { envelope, fakeApi, ok, signIn } from '../../../test/fake-api.ts';
import { userPipelines } from '../calls/pipelines.ts';
import { lastUploads, uploadFiles } from '../calls/uploads.ts';
import { api } from './api.ts';

describe('calls that return nothing (docs/product.md §5.3)', () => {
  it('throw their own text word for word', async () => {
    signIn();
    fakeApi({
      'GET /users/pipelines': () => ok(null),
      'GET /uploads/last-all': () => ok(null),
      'POST /uploads': () => ok(null),
    });
    await expect(userPipelines()).rejects.toThrow(/^no valid data$/);
    await expect(lastUploads('p1')).rejects.toThrow(/^error while fetching last upload files$/);
    await expect(uploadFiles('p1', new Map([['main', new File(['a'], 'a.csv')]]), 'wizard')).rejects.toThrow(
      /^error while uploading files$/,
    );
  });

  it("keep the server's own message when it gives one, and check answers as before", async () => {
    signIn();
    fakeApi({
      'POST /uploads': () => envelope(40900, 'The pipeline is locked.', null, 409),
      'GET /odd': () => ok({ not: 'a list' }),
    });
    await expect(uploadFiles('p1', new Map([['main', new File(['a'], 'a.csv')]]), 'wizard')).rejects.toThrow(
      'The pipeline is locked.',
    );
    await expect(api.get('/odd', z.array(z.string()), { nothing: 'x' })).rejects.toThrow(/^Unexpected answer from GET \/odd/);
  });
});
