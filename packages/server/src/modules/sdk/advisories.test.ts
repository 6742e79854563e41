import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { advisoryCheck } from './advisories.ts';

const FIXTURE = path.join(import.meta.dirname, '../../../../../docs/examples/osv-npm-advisories.json');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-advisories-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const vulnerable = async (check: ReturnType<typeof advisoryCheck>, name: string, version: string) =>
  (await check.report('id', [{ name, version }], false)).vulnerable.flatMap((v) => v.advisories.map((a) => a.id));

describe('the OSV advisory check', () => {
  const fixture = advisoryCheck(FIXTURE);

  it.each([
    ['lodash', '4.17.20', ['GHSA-35jh-r3h4-6jhm']],
    ['lodash', '4.17.21', []],
    ['semver', '7.5.1', ['GHSA-c2qf-rxjj-qqgw']],
    ['semver', '7.5.2', []],
    ['semver', '6.3.0', ['GHSA-c2qf-rxjj-qqgw']],
    ['semver', '6.3.1', []],
    ['semver', '5.7.1', ['GHSA-c2qf-rxjj-qqgw']],
    ['dayjs', '0.9.0', []],
    ['dayjs', '1.11.23', ['DEMO-2026-0001']],
    ['left-pad', '1.0.0', []],
  ])('matches %s@%s to the ranges of the fixture', async (name, version, ids) => {
    expect(await vulnerable(fixture, name, version)).toEqual(ids);
  });

  it('reads the first fixed version above the one used, and ignores other ecosystems', async () => {
    const report = await fixture.report('id', [{ name: 'semver', version: '6.1.0' }], false);
    expect(report.vulnerable[0]?.advisories[0]).toMatchObject({
      fixed: '6.3.1',
      severity: 'MODERATE',
      aliases: ['CVE-2022-25883'],
    });
    expect(report.advisories.count).toBe(3);
  });

  it('takes last_affected as the last version affected, listed versions, and a folder of files', async () => {
    const folder = path.join(dir, 'set');
    fs.mkdirSync(folder);
    const entry = (id: string, affected: unknown) => JSON.stringify({ id, affected: [affected] });
    const pkg = { ecosystem: 'npm', name: 'pkg' };
    fs.writeFileSync(
      path.join(folder, 'a.json'),
      entry('A', { package: pkg, ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }, { last_affected: '1.2.0' }] }] }),
    );
    fs.writeFileSync(path.join(folder, 'b.json'), entry('B', { package: pkg, versions: ['3.0.0'] }));
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'not read');
    const check = advisoryCheck(folder);
    expect(await vulnerable(check, 'pkg', '1.2.0')).toEqual(['A']);
    expect(await vulnerable(check, 'pkg', '1.2.1')).toEqual([]);
    expect(await vulnerable(check, 'pkg', '0.9.9')).toEqual([]);
    expect(await vulnerable(check, 'pkg', '3.0.0')).toEqual(['B']);
  });

  it('says no advisory data could be read for a missing file, never that nothing is vulnerable', async () => {
    const report = await advisoryCheck(path.join(dir, 'none.json')).report('id', [{ name: 'lodash', version: '4.17.20' }], false);
    expect(report).toMatchObject({ checked: false, vulnerable: [] });
    expect(report.message).toMatch(/^No advisory data could be read: .*none\.json could not be read: /);
  });
});
