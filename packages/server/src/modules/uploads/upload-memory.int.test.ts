import { describe, expect, it } from 'vitest';
import { measureUpload } from '../../../test/measure-upload.ts';

// Measured in a process of its own: the test runner's memory would hide what the request costs.
describe('an upload of 50 MiB', () => {
  it('grows the server by nothing near its size: each file goes to the store as it arrives', () => {
    const cost = measureUpload([19, 19, 12]);
    expect(cost.status).toBe(200);
    // Read whole, the files were held until the request ended: 58 MiB at the peak on PGlite, 68 on PostgreSQL.
    expect(cost.peakRssGrowthMiB).toBeLessThan(16);
  }, 300_000);
});
