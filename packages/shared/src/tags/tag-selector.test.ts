import { describe, expect, it } from 'vitest';
import { selectableTags, TAG_SELECTOR } from './tag-selector.ts';

describe('tag selector', () => {
  it('leaves hidden badges out and sorts by name ignoring case', () => {
    const tags = [
      { name: 'beta', isHidden: false },
      { name: 'Alpha', isHidden: false },
      { name: 'secret', isHidden: true },
      { name: 'alpha', isHidden: false },
      { name: 'Gamma', isHidden: false },
    ];
    expect(selectableTags(tags).map((t) => t.name)).toEqual(['alpha', 'Alpha', 'beta', 'Gamma']);
    expect(tags).toHaveLength(5);
  });

  it('keeps the spec constants', () => {
    expect(TAG_SELECTOR.noTags).toBe('No tags');
    expect(TAG_SELECTOR.boxHeight).toBe(290);
    expect(TAG_SELECTOR.globalListTitle).toBe('Manage global badge list');
  });
});
