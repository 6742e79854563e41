import { describe, expect, it } from 'vitest';
import { bodiesComing, bodyComing } from './bodies-coming.ts';

describe('bodies coming', () => {
  it('holds while any body noted is still coming, each ended once', () => {
    expect(bodiesComing()).toBe(false);
    const first = bodyComing();
    const second = bodyComing();
    first();
    first();
    expect(bodiesComing()).toBe(true);
    second();
    expect(bodiesComing()).toBe(false);
  });
});
