import { describe, expect, it } from 'vitest';
import { formModules, parseModule, savedModules } from './sdk-modules.ts';

describe('modules of an SDK function in the form', () => {
  it('are written name@version, or the name alone for the version the server has', () => {
    expect(
      formModules([
        { name: 'dayjs', version: '1.11.13' },
        { name: '@scope/pkg', version: '' },
      ]),
    ).toEqual(['dayjs@1.11.13', '@scope/pkg']);
  });

  it('are read back with a scoped name kept whole', () => {
    expect(parseModule(' @scope/pkg@2.0.1 ')).toEqual({ name: '@scope/pkg', version: '2.0.1' });
    expect(parseModule('@scope/pkg')).toEqual({ name: '@scope/pkg', version: '' });
    expect(parseModule('dayjs')).toEqual({ name: 'dayjs', version: '' });
  });

  it('leave out empty entries and anything that is not text', () => {
    expect(savedModules(['dayjs@1.11.13', '  ', 3, null])).toEqual([{ name: 'dayjs', version: '1.11.13' }]);
    expect(savedModules(undefined)).toEqual([]);
  });
});
