import { describe, expect, it } from 'vitest';
import { forgettableChecks } from './check-access.mjs';

const lines = (text: string, file = 'modules/x/x.service.ts') =>
  forgettableChecks(text, file).map((f: { line: number }) => f.line);

describe('the access check rule', () => {
  it('finds the defaults that let everything through when a caller forgets the check', () => {
    const text = [
      'const openToAll: DocumentAccess = async () => allowEverything;',
      'export function s(ctx: AppContext, access: DocumentAccess = open) {}',
      'export function f(ctx: AppContext, options: { documentAccess?: DocumentAccessHook } = {}) {}',
      'const access = deps.access ?? (async () => everything);',
      'async find(id: string, viewer?: AuthContext) {}',
      'async save(body: Body, userId: string | null, auth?: AuthContext) {}',
    ].join('\n');
    expect(lines(text)).toEqual([1, 1, 2, 3, 4, 5, 6]);
  });

  it('lets through required checks and callers, and allowEverything where the check is defined', () => {
    const text = [
      'export function s(ctx: AppContext, access: DocumentAccess) {}',
      'export function f(ctx: AppContext, options: { documentAccess: DocumentAccessHook }) {}',
      'async find(id: string, viewer: AuthContext) {}',
      'const same = a.access === b.access;',
    ].join('\n');
    expect(lines(text)).toEqual([]);
    expect(lines('export const allowEverything: CallerAccess = {};', 'modules/access/access.service.ts')).toEqual([]);
    expect(lines('import { allowEverything } from "../access/access.service.ts";')).toEqual([1]);
  });
});
