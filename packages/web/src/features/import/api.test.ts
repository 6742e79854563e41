import '../../../test/dom.ts';
import { describe, expect, it } from 'vitest';
import { envelope, fakeApi, signIn } from '../../../test/fake-api.ts';
import { deleteImport } from './api.ts';

describe('deleting an import (docs/product.md §5.3)', () => {
  it("throws the spec's text when the server says nothing, and the server's own message when it gives one", async () => {
    signIn();
    fakeApi({ 'DELETE /imports': () => envelope(50000, '', null) });
    await expect(deleteImport('i1')).rejects.toThrow(/^error while deleting import$/);
    fakeApi({
      'DELETE /imports': () => envelope(40900, 'Cannot delete the import while it runs: stop it first.', null, 409),
    });
    await expect(deleteImport('i1')).rejects.toThrow('Cannot delete the import while it runs: stop it first.');
  });
});
