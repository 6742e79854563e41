import '../../../test/dom.ts';
import { describe, expect, it } from 'vitest';
import { fakeApi, ok, signIn } from '../../../test/fake-api.ts';
import { listAll } from './api.ts';

describe('the logbook list (docs/product.md §5.3)', () => {
  it("throws the spec's text word for word when the server returns nothing", async () => {
    signIn();
    fakeApi({ 'GET /imports/listAll': () => ok(null) });
    await expect(listAll({ pageNumber: 0 })).rejects.toThrow(/^error while fetching all imports$/);
  });
});
