import { describe, expect, it } from 'vitest';
import { moduleSpecProblem, sdkSaveBodySchema } from './sdk.schemas.ts';

describe('SDK function modules', () => {
  it('takes registry names with an exact version, or an empty version for the installed one', () => {
    expect(moduleSpecProblem('dayjs', '1.11.13')).toBeNull();
    expect(moduleSpecProblem('@scope/pkg.name', '2.0.0-rc.1+build.5')).toBeNull();
    expect(moduleSpecProblem('dayjs', '')).toBeNull();
  });

  it.each([
    ['../../etc/passwd', '1.0.0'],
    ['/usr/lib/node_modules/x', '1.0.0'],
    ['file:../x', '1.0.0'],
    ['https://evil.example/x.tgz', '1.0.0'],
    ['git+ssh://git@github.com/a/b.git', '1.0.0'],
    ['github:user/repo', '1.0.0'],
    ['.hidden', '1.0.0'],
    ['Capital', '1.0.0'],
    ['@scope/../x', '1.0.0'],
  ])('refuses the name %s, naming it', (name, version) => {
    expect(moduleSpecProblem(name, version)).toBe(
      `Module ${JSON.stringify(name)} is not an npm package name (paths, URLs and git specs are refused)`,
    );
  });

  it.each([
    '^1.0.0',
    '1.x',
    'latest',
    'file:../dayjs',
    'https://evil.example/dayjs.tgz',
    'git+https://x/y.git',
    'user/repo#v1',
    '01.0.0',
  ])('refuses the version %s, naming the module', (version) => {
    expect(moduleSpecProblem('dayjs', version)).toBe(
      `Module dayjs: version ${JSON.stringify(version)} is not an exact version (ranges, tags, paths, URLs and git specs are refused)`,
    );
  });

  it('reports the problem on the field of the module in a save body', () => {
    const parsed = sdkSaveBodySchema.safeParse({
      functionName: 'f',
      modules: [
        { name: 'ok', version: '1.0.0' },
        { name: 'ok', version: 'latest' },
      ],
    });
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['modules.1.version']);
  });
});
