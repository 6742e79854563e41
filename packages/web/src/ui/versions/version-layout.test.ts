import { describe, expect, it } from 'vitest';
import { FAMILY, record, vid } from '../../../test/versions-fixtures.ts';
import { layoutVersions, VERSION_NODE, versionEdges } from './version-layout.ts';

describe('version graph layout', () => {
  it('joins each version to its parents still in the family (a deleted parent leaves no edge)', () => {
    const family = [record(2, false, [1]), record(3, true, [2, 9])];
    expect(versionEdges(family)).toEqual([{ id: `${vid(2)}->${vid(3)}`, source: vid(2), target: vid(3) }]);
  });

  it('places parents above what was made from them, boxes apart', async () => {
    const places = await layoutVersions(FAMILY);
    const at = (n: number) => places.get(vid(n)) ?? { x: Number.NaN, y: Number.NaN };
    expect(at(1).y + VERSION_NODE.height).toBeLessThanOrEqual(at(2).y);
    expect(at(2).y).toBe(at(3).y);
    expect(Math.abs(at(2).x - at(3).x)).toBeGreaterThanOrEqual(VERSION_NODE.width);
    expect(at(4).y).toBeGreaterThan(at(2).y);
  });
});
