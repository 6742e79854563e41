import '../../test/dom.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { listAll } from '../../features/consult/api.ts';
import { deleteImport, lastUploads, uploadFiles, userPipelines } from '../../features/import/api.ts';
import { envelope, fakeApi, ok, signIn } from '../../test/fake-api.ts';
import { api } from './api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('calls that return nothing (000 §8)', () => {
  it('throw their own text word for word', async () => {
    signIn();
    fakeApi({
      'GET /users/pipelines': () => ok(null),
      'GET /uploads/last-all': () => ok(null),
      'POST /uploads': () => ok(null),
      'GET /imports/listAll': () => ok(null),
      'DELETE /imports': () => envelope(50000, '', null),
    });
    await expect(userPipelines()).rejects.toThrow(/^no valid data$/);
    await expect(lastUploads('p1')).rejects.toThrow(/^error while fetching last upload files$/);
    await expect(uploadFiles('p1', new Map([['main', new File(['a'], 'a.csv')]]))).rejects.toThrow(
      /^error while uploading files$/,
    );
    await expect(listAll({ pageNumber: 0 })).rejects.toThrow(/^error while fetching all imports$/);
    await expect(deleteImport('i1')).rejects.toThrow(/^error while deleting import$/);
  });

  it("keep the server's own message when it gives one, and check answers as before", async () => {
    signIn();
    fakeApi({
      'DELETE /imports': () => envelope(40900, 'Cannot delete the import while it runs: stop it first.', null, 409),
      'GET /odd': () => ok({ not: 'a list' }),
    });
    await expect(deleteImport('i1')).rejects.toThrow('Cannot delete the import while it runs: stop it first.');
    await expect(api.get('/odd', z.array(z.string()), { nothing: 'x' })).rejects.toThrow(/^Unexpected answer from GET \/odd/);
  });
});
