import { describe, expect, it } from 'vitest';
import { formLanguage, randomId } from './form-names.ts';

describe('form names, ids and language', () => {
  it('random ids: 5 characters by default, at most 10', () => {
    expect(randomId()).toMatch(/^[a-z0-9]{5}$/);
    expect(randomId(8)).toHaveLength(8);
    expect(randomId(50)).toHaveLength(10);
  });

  it("the forms' language: the browser's, lower-cased with an underscore", () => {
    expect(formLanguage('zh-CN')).toBe('zh_cn');
    expect(formLanguage('en')).toBe('en');
  });
});
