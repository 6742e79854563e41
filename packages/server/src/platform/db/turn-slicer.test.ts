import { describe, expect, it } from 'vitest';
import { TurnSlicer } from './turn-slicer.ts';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // work without a wait
  }
}

describe('TurnSlicer', () => {
  it('goes on at once while the turn is young', () => {
    const slicer = new TurnSlicer(50);
    expect(slicer.pause()).toBeUndefined();
    expect(slicer.pause()).toBeUndefined();
  });

  it('waits for a later turn once the slice has run', async () => {
    const slicer = new TurnSlicer(2);
    expect(slicer.pause()).toBeUndefined();
    busy(5);
    const waiting = slicer.pause();
    expect(waiting).toBeInstanceOf(Promise);
    await waiting;
  });

  it('starts a new slice in the next turn', async () => {
    const slicer = new TurnSlicer(2);
    slicer.pause();
    busy(5);
    await slicer.pause();
    expect(slicer.pause()).toBeUndefined();
  });
});
