// The rule set of .dependency-cruiser.cjs on a folder that breaks each rule once, beside imports the
// rules allow: every break is reported, and nothing else.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, expect, it, describe as suite } from 'vitest';
import { checkBoundaries, describe, staleExceptions } from './check-boundaries.mjs';

const fixture = path.join(import.meta.dirname, 'boundaries-fixture');
const server = 'packages/server/src';
const web = 'packages/web/src';

suite('the boundary rules', () => {
  let violations: Awaited<ReturnType<typeof checkBoundaries>>['violations'] = [];
  beforeAll(async () => {
    ({ violations } = await checkBoundaries(fixture));
  });
  const found = (rule: string) => violations.filter((v) => v.rule === rule).map((v) => [v.from, v.to]);

  it('report an import cycle, type-only imports included', () => {
    const cycles = violations.filter((v) => v.rule === 'no-cycle');
    expect(cycles).toHaveLength(1);
    expect(cycles[0]?.cycle).toEqual(['packages/shared/src/money/second.ts', 'packages/shared/src/money/first.ts']);
  });

  it('report a cycle between modules that no file cycle shows', () => {
    expect(found('no-folder-cycle')).toContainEqual([`${server}/modules/buyers`, `${server}/modules/badges`]);
  });

  it('report the platform importing a module', () => {
    expect(found('platform-not-to-modules')).toEqual([
      [`${server}/platform/bus/bus.ts`, `${server}/modules/stock/stock.service.ts`],
    ]);
  });

  it("report the isolate's library importing a Node API or anything outside its folder", () => {
    expect(found('sandbox-stands-alone')).toEqual([
      [`${server}/runtime/sandbox/library.ts`, 'buffer'],
      [`${server}/runtime/sandbox/library.ts`, `${server}/platform/bus/bus.ts`],
    ]);
  });

  it('report a module importing what builds the app', () => {
    expect(found('modules-not-to-top')).toEqual([[`${server}/modules/stock/stock-routes.ts`, `${server}/app.ts`]]);
  });

  it("report a module reaching past another module's service and public types", () => {
    expect(found('module-through-its-face')).toEqual([
      [`${server}/modules/orders/orders.service.ts`, `${server}/modules/stock/stock.repo.ts`],
    ]);
  });

  it('report a feature importing another feature, even through its index.ts', () => {
    expect(found('feature-not-to-feature')).toEqual([
      [`${web}/features/checkout/CheckoutPage.ts`, `${web}/features/basket/BasketPicker.ts`],
      [`${web}/features/checkout/index.ts`, `${web}/features/basket/index.ts`],
    ]);
  });

  it("report the shell reaching past a feature's index.ts", () => {
    expect(found('shell-through-feature-index')).toEqual([[`${web}/app/Layout.ts`, `${web}/features/basket/BasketPicker.ts`]]);
  });

  it('report the ground reaching up into ui/', () => {
    expect(found('ground-stays-down')).toEqual([[`${web}/ground/fetch/fetch.ts`, `${web}/ui/Chip.ts`]]);
  });

  it('report production code importing test code', () => {
    expect(found('production-not-to-tests')).toEqual([
      [`${server}/modules/orders/order-run.ts`, 'packages/server/test/orders-test-kit.ts'],
    ]);
  });

  it('report nothing else: the allowed imports pass', () => {
    const rules = new Set(violations.map((v) => v.rule));
    expect([...rules].sort()).toEqual([
      'feature-not-to-feature',
      'ground-stays-down',
      'module-through-its-face',
      'modules-not-to-top',
      'no-cycle',
      'no-folder-cycle',
      'platform-not-to-modules',
      'production-not-to-tests',
      'sandbox-stands-alone',
      'shell-through-feature-index',
    ]);
    expect(violations.filter((v) => v.rule === 'no-folder-cycle')).toHaveLength(2);
  });

  it('say each violation on one line, a cycle as its steps', () => {
    const cycle = violations.find((v) => v.rule === 'no-cycle');
    expect(cycle && describe(cycle)).toBe(
      'no-cycle: packages/shared/src/money/first.ts → packages/shared/src/money/second.ts → packages/shared/src/money/first.ts',
    );
  });

  it('fail the check command, naming each break', () => {
    const run = spawnSync(process.execPath, [path.join(import.meta.dirname, 'check-boundaries.mjs'), fixture], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('platform-not-to-modules: packages/server/src/platform/bus/bus.ts → ');
    expect(run.stderr).toContain('Boundaries: 13 imports break the rules');
  });
});

suite('the known exceptions', () => {
  const exception = { rule: 'module-through-its-face', from: 'packages/server/src/modules/orders/', to: 'packages/x/row.ts' };
  const violation = {
    rule: 'module-through-its-face',
    from: 'packages/server/src/modules/orders/run.ts',
    to: 'packages/x/row.ts',
  };

  it('are needed while an import they let through remains', () => {
    expect(staleExceptions([exception], [violation])).toEqual([]);
  });

  it('are reported once nothing needs them: the import went, or breaks another rule, or goes elsewhere', () => {
    expect(staleExceptions([exception], [])).toEqual([exception]);
    expect(staleExceptions([exception], [{ ...violation, rule: 'no-cycle' }])).toEqual([exception]);
    expect(staleExceptions([exception], [{ ...violation, to: 'packages/x/other.ts' }])).toEqual([exception]);
    expect(staleExceptions([exception], [{ ...violation, from: 'packages/server/src/modules/stock/a.ts' }])).toEqual([exception]);
  });
});
