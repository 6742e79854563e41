import { describe, expect, it } from 'vitest';
import { measureUpload } from '../../../test/measure-upload.ts';

// Measured in a process of its own: the test runner's memory would hide what the request costs.
describe('an upload of 50 MiB', () => {
  it('grows the server by nothing near its size: each file goes to the store as it arrives', () => {
    // The lower of two uploads' peaks: on a machine busy with other tests, one upload's peak can
    // take in a collection that came late (18 MiB once in CI, 3–6 MiB otherwise); a request that
    // holds its files shows in both.
    const costs = [measureUpload([19, 19, 12]), measureUpload([19, 19, 12])];
    expect(costs.map((c) => c.status)).toEqual([200, 200]);
    // Read whole, the files were held until the request ended: 58 MiB at the peak on PGlite, 68 on PostgreSQL.
    expect(Math.min(...costs.map((c) => c.peakRssGrowthMiB))).toBeLessThan(16);
  }, 300_000);
});
