import { describe, expect, it } from 'vitest';
import { ROLES } from '../auth/roles.ts';
import {
  canOpen,
  findRoute,
  flattenRoutes,
  guard,
  homePathFor,
  isPublicPath,
  landingAfterLogin,
  loginPath,
  menuFor,
  normalizePath,
  PUBLIC_PATHS,
  pageTitle,
  redirectTarget,
  routeTrail,
  safeRedirect,
  WEB_ROUTES,
  type WebRoute,
} from './web-routes.ts';

const titles = (entries: ReturnType<typeof menuFor>): unknown =>
  entries.map((e) => (e.children ? { [e.title]: e.children.map((c) => c.title) } : e.title));

describe('route table (docs/product.md §3.1)', () => {
  it('lists every path of the spec with its title, roles and redirect', () => {
    const rows = flattenRoutes().map((r) => [r.path, r.title ?? '', (r.roles ?? []).join(','), r.redirect ?? '']);
    expect(rows).toEqual([
      ['/', '', '', '/login'],
      ['/login', '', '', ''],
      ['/create-password', 'Create password', '', ''],
      ['/reset-password', 'Create password', '', ''],
      ['/forgotten', 'Forgotten password', '', ''],
      ['/404', '', '', ''],
      ['/import', 'Update data', 'user,manager,super-admin', '/import/upload'],
      ['/import/upload', 'Upload new file', 'user,manager,super-admin', ''],
      ['/import/jobs', 'Manage jobs', 'admin,manager,super-admin', ''],
      ['/import/review', 'Review rows', 'user,manager,admin,super-admin', ''],
      ['/export', 'Export', 'user,manager,super-admin', '/export/index'],
      ['/export/index', 'Download latest files', 'user,manager,super-admin', ''],
      ['/consult', 'Consult', 'user,manager,super-admin', '/consult/upload'],
      ['/consult/upload', 'Upload', 'manager,super-admin', ''],
      ['/consult/import', 'Import', 'user,manager,super-admin', ''],
      ['/manage', 'Manage', 'manager,admin,super-admin', '/manage/pipeline'],
      ['/manage/pipeline', 'Pipelines', 'manager,super-admin', ''],
      ['/manage/schemas', 'Data Models', 'manager,super-admin', ''],
      ['/manage/components', 'Components', 'manager,super-admin', ''],
      ['/manage/update-lock-pipeline', 'Updates', 'manager,super-admin', ''],
      ['/manage/users', 'Users', 'admin,super-admin', ''],
      ['/manage/endpoints', 'Manage endpoints', 'super-admin,manager', ''],
      ['/manage/listeners', 'Manage listeners', 'super-admin,manager', ''],
      ['/manage/sdk', 'Sdk', 'super-admin', ''],
      ['/manage/documentation', 'Documentation', 'super-admin,manager', ''],
      ['/testing', 'Testing View', 'user,manager,admin,super-admin', '/testing/index'],
      ['/testing/index', 'Testing View', 'user,manager,admin,super-admin', ''],
      ['/activity', 'Activity', 'admin,super-admin', '/activity/index'],
      ['/activity/index', 'Activity', 'admin,super-admin', ''],
      ['/unauthorized', '', '', '/unauthorized/index'],
      ['/unauthorized/index', '', '', ''],
    ]);
  });

  it('has unique paths, every child below its parent, and every redirect pointing at a route', () => {
    const all = flattenRoutes();
    expect(new Set(all.map((r) => r.path)).size).toBe(all.length);
    for (const parent of all) {
      for (const child of parent.children ?? []) expect(child.path.startsWith(`${parent.path}/`)).toBe(true);
      if (parent.redirect) expect(findRoute(parent.redirect)).toBeDefined();
    }
  });

  it('keeps every public path in the table and hidden from the menu', () => {
    for (const p of PUBLIC_PATHS) expect(findRoute(p)?.hidden).toBe(true);
  });
});

describe('normalizePath, findRoute, isPublicPath', () => {
  it('drops trailing slashes and adds a missing leading one', () => {
    expect(normalizePath('/manage/users/')).toBe('/manage/users');
    expect(normalizePath('/manage//')).toBe('/manage');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('')).toBe('/');
    expect(normalizePath('login')).toBe('/login');
  });

  it('finds routes at any depth, ignoring a trailing slash, and nothing for unknown paths', () => {
    expect(findRoute('/manage/sdk')?.title).toBe('Sdk');
    expect(findRoute('/manage/sdk/')?.title).toBe('Sdk');
    expect(findRoute('/manage/nothing')).toBeUndefined();
    expect(findRoute('/Manage/sdk')).toBeUndefined();
  });

  it('knows the five public paths and nothing else', () => {
    for (const p of ['/login', '/create-password', '/reset-password', '/forgotten', '/404', '/login/']) {
      expect(isPublicPath(p)).toBe(true);
    }
    for (const p of ['/', '/import', '/unauthorized', '/unauthorized/index', '/login/x']) expect(isPublicPath(p)).toBe(false);
  });
});

describe('routeTrail and pageTitle', () => {
  it('answers the chain from the top for the breadcrumb', () => {
    expect(routeTrail('/manage/users').map((r) => r.title)).toEqual(['Manage', 'Users']);
    expect(routeTrail('/import').map((r) => r.path)).toEqual(['/import']);
    expect(routeTrail('/testing/index/').map((r) => r.path)).toEqual(['/testing', '/testing/index']);
    expect(routeTrail('/nowhere')).toEqual([]);
  });

  it('searches a nested table of any depth', () => {
    const deep: WebRoute[] = [{ path: '/a', children: [{ path: '/a/b', children: [{ path: '/a/b/c', title: 'C' }] }] }];
    expect(routeTrail('/a/b/c', deep).map((r) => r.path)).toEqual(['/a', '/a/b', '/a/b/c']);
  });

  it('titles the tab "{title} - GDB-IMPORTER", or the product title for untitled pages', () => {
    expect(pageTitle('/manage/users')).toBe('Users - GDB-IMPORTER');
    expect(pageTitle('/import/upload')).toBe('Upload new file - GDB-IMPORTER');
    expect(pageTitle('/login')).toBe('GDB-IMPORTER');
    expect(pageTitle('/unknown')).toBe('GDB-IMPORTER');
  });
});

describe('menuFor (sidebar)', () => {
  it('leaves out the entries whose page is not built, a parent left with one child collapsing into it', () => {
    const built = new Set(['/import/upload', '/export/index', '/manage/users', '/testing/index']);
    expect(titles(menuFor(['super-admin'], undefined, (p) => built.has(p)))).toEqual([
      'Update data',
      'Export',
      'Manage',
      'Testing View',
    ]);
  });

  it('shows a super-admin every entry, with the one-child parents collapsed', () => {
    expect(titles(menuFor(['super-admin']))).toEqual([
      { 'Update data': ['Upload new file', 'Manage jobs'] },
      'Export',
      { Consult: ['Upload', 'Import'] },
      {
        Manage: [
          'Pipelines',
          'Data Models',
          'Components',
          'Updates',
          'Users',
          'Manage endpoints',
          'Manage listeners',
          'Sdk',
          'Documentation',
        ],
      },
      'Testing View',
      'Activity',
    ]);
  });

  it('shows a user only Update data, Export, Consult (their logbook) and Testing View, each as one link to its single child', () => {
    expect(menuFor(['user'])).toEqual([
      { path: '/import/upload', title: 'Update data' },
      { path: '/export/index', title: 'Export' },
      { path: '/consult/import', title: 'Consult' },
      { path: '/testing/index', title: 'Testing View' },
    ]);
  });

  it('shows a manager everything but Users and Sdk', () => {
    const menu = menuFor(['manager']);
    expect(titles(menu)).toEqual([
      { 'Update data': ['Upload new file', 'Manage jobs'] },
      'Export',
      { Consult: ['Upload', 'Import'] },
      {
        Manage: ['Pipelines', 'Data Models', 'Components', 'Updates', 'Manage endpoints', 'Manage listeners', 'Documentation'],
      },
      'Testing View',
    ]);
  });

  it('collapses Manage into one link to Users for an admin, and hides parents the role may not open', () => {
    expect(menuFor(['admin'])).toEqual([
      { path: '/manage/users', title: 'Manage' },
      { path: '/testing/index', title: 'Testing View' },
      { path: '/activity/index', title: 'Activity' },
    ]);
  });

  it('merges the entries of an admin who is also a manager', () => {
    const manage = menuFor(['admin', 'manager']).find((e) => e.title === 'Manage');
    expect(manage?.children?.map((c) => c.title)).toContain('Users');
    expect(manage?.children?.map((c) => c.title)).toContain('Pipelines');
    expect(manage?.children?.map((c) => c.title)).not.toContain('Sdk');
  });

  it('shows nothing without roles or with unknown roles', () => {
    expect(menuFor([])).toEqual([]);
    expect(menuFor(['guest'])).toEqual([]);
  });

  it('drops entries without an authorize list, hidden entries and parents with no visible child', () => {
    const table: WebRoute[] = [
      { path: '/open', title: 'Open' },
      { path: '/hidden', title: 'Hidden', roles: ['user'], hidden: true },
      { path: '/p', title: 'P', roles: ['user'], children: [{ path: '/p/x', title: 'X', roles: ['admin'] }] },
      {
        path: '/q',
        title: 'Q',
        roles: ['user'],
        children: [
          { path: '/q/a', title: 'A', roles: ['user'] },
          { path: '/q/b', title: 'B', roles: ['user'], hidden: true },
        ],
      },
      { path: '/leaf', roles: ['user'] },
    ];
    expect(menuFor(['user'], table)).toEqual([
      { path: '/q/a', title: 'Q' },
      { path: '/leaf', title: '/leaf' },
    ]);
  });
});

describe('redirectTarget', () => {
  it('answers nothing for a route without a redirect, and the table target otherwise', () => {
    const users = findRoute('/manage/users');
    const manage = findRoute('/manage');
    if (!users || !manage) throw new Error('table changed');
    expect(redirectTarget(users, ['admin'])).toBeUndefined();
    expect(redirectTarget(manage)).toBe('/manage/pipeline');
    expect(redirectTarget(manage, ['super-admin'])).toBe('/manage/pipeline');
    expect(redirectTarget(manage, ['admin'])).toBe('/manage/users');
    expect(redirectTarget(manage, ['guest'])).toBe('/manage/pipeline');
  });
});

describe('canOpen, homePathFor, landingAfterLogin', () => {
  it('opens routes without an authorize list to anyone signed in, others to a listed role', () => {
    const unauthorized = findRoute('/unauthorized/index');
    const users = findRoute('/manage/users');
    if (!unauthorized || !users) throw new Error('table changed');
    for (const role of ROLES) expect(canOpen(unauthorized, [role])).toBe(true);
    expect(canOpen(users, ['admin'])).toBe(true);
    expect(canOpen(users, ['manager'])).toBe(false);
    expect(canOpen(users, ['manager', 'admin'])).toBe(true);
  });

  it('sends an admin to /manage and everyone else to /import when /login is opened signed in', () => {
    expect(homePathFor(['admin'])).toBe('/manage');
    expect(homePathFor(['admin', 'manager'])).toBe('/manage');
    expect(homePathFor(['super-admin'])).toBe('/import');
    expect(homePathFor(['user'])).toBe('/import');
  });

  it('lands an admin on /manage/users after sign-in and everyone else on /import', () => {
    expect(landingAfterLogin(['admin'])).toBe('/manage/users');
    expect(landingAfterLogin(['manager', 'admin'])).toBe('/manage/users');
    expect(landingAfterLogin(['super-admin'])).toBe('/import');
    expect(landingAfterLogin(['manager'])).toBe('/import');
  });
});

describe('loginPath and safeRedirect', () => {
  it('builds /login with a readable, encoded redirect', () => {
    expect(loginPath()).toBe('/login');
    expect(loginPath('/manage/users')).toBe('/login?redirect=/manage/users');
    expect(loginPath('/manage/components?id=a&b=c')).toBe('/login?redirect=/manage/components%3Fid%3Da%26b%3Dc');
    const back = new URLSearchParams(loginPath('/manage/components?id=a&b=c').split('?')[1]).get('redirect');
    expect(back).toBe('/manage/components?id=a&b=c');
  });

  it('keeps only redirects inside the app', () => {
    expect(safeRedirect('/manage/users')).toBe('/manage/users');
    expect(safeRedirect('/x?y=1')).toBe('/x?y=1');
    expect(safeRedirect('//evil.example/x')).toBeUndefined();
    expect(safeRedirect('/\\evil.example')).toBeUndefined();
    expect(safeRedirect('https://evil.example')).toBeUndefined();
    expect(safeRedirect('')).toBeUndefined();
    expect(safeRedirect(null)).toBeUndefined();
    expect(safeRedirect(undefined)).toBeUndefined();
  });
});

describe('guard (docs/product.md §3.2)', () => {
  const out = { hasToken: false };
  const as = (...roles: string[]) => ({ hasToken: true, roles });

  it('redirects unknown paths to /404, signed in or not', () => {
    expect(guard('/nowhere', out)).toEqual({ kind: 'redirect', to: '/404' });
    expect(guard('/manage/nothing', as('super-admin'))).toEqual({ kind: 'redirect', to: '/404' });
  });

  it('redirects / to /login, signed in or not', () => {
    expect(guard('/', out)).toEqual({ kind: 'redirect', to: '/login' });
    expect(guard('/', as('user'))).toEqual({ kind: 'redirect', to: '/login' });
  });

  it('follows the redirects of the table first', () => {
    const redirects = flattenRoutes().filter((r) => r.redirect);
    expect(redirects.length).toBe(8);
    for (const r of redirects) expect(guard(r.path, as('super-admin'))).toEqual({ kind: 'redirect', to: r.redirect });
    expect(guard('/import/', out)).toEqual({ kind: 'redirect', to: '/import/upload' });
  });

  it('redirects a parent to the first child the roles may open when its target is closed to them', () => {
    expect(guard('/manage', as('admin'))).toEqual({ kind: 'redirect', to: '/manage/users' });
    expect(guard('/manage', as('manager'))).toEqual({ kind: 'redirect', to: '/manage/pipeline' });
    expect(guard('/manage', out)).toEqual({ kind: 'redirect', to: '/manage/pipeline' });
    expect(guard('/import', as('admin'))).toEqual({ kind: 'redirect', to: '/import/jobs' });
    expect(guard('/consult', as('user'))).toEqual({ kind: 'redirect', to: '/consult/import' });
  });

  it('lets anyone open the public paths', () => {
    for (const p of PUBLIC_PATHS) {
      expect(guard(p, out)).toEqual({ kind: 'allow' });
      if (p !== '/login') expect(guard(p, as('user'))).toEqual({ kind: 'allow' });
    }
  });

  it('sends a signed-in user away from /login: admin to /manage, others to /import', () => {
    expect(guard('/login', as('admin'))).toEqual({ kind: 'redirect', to: '/manage' });
    expect(guard('/login', as('user'))).toEqual({ kind: 'redirect', to: '/import' });
    expect(guard('/login', as('super-admin'))).toEqual({ kind: 'redirect', to: '/import' });
  });

  it('keeps /login open to a token holder without roles (no loop)', () => {
    expect(guard('/login', { hasToken: true, roles: [] })).toEqual({ kind: 'allow' });
    expect(guard('/login', { hasToken: true })).toEqual({ kind: 'allow' });
  });

  it('sends a visitor without a token to /login with a redirect back, query included', () => {
    expect(guard('/manage/users', out)).toEqual({ kind: 'redirect', to: '/login?redirect=/manage/users' });
    expect(guard('/unauthorized/index', out)).toEqual({ kind: 'redirect', to: '/login?redirect=/unauthorized/index' });
    expect(guard('/manage/components', out, '?id=7')).toEqual({
      kind: 'redirect',
      to: '/login?redirect=/manage/components%3Fid%3D7',
    });
  });

  it('sends a signed-in user without roles to /login with a redirect back', () => {
    expect(guard('/testing/index', { hasToken: true, roles: [] })).toEqual({
      kind: 'redirect',
      to: '/login?redirect=/testing/index',
    });
  });

  it('opens a route without an authorize list to any signed-in user', () => {
    for (const role of ROLES) expect(guard('/unauthorized/index', as(role))).toEqual({ kind: 'allow' });
  });

  it('admits exactly the roles listed on each route, and sends others to /unauthorized', () => {
    for (const route of flattenRoutes().filter((r) => r.roles && !r.redirect)) {
      for (const role of ROLES) {
        const expected = route.roles?.includes(role) ? { kind: 'allow' } : { kind: 'redirect', to: '/unauthorized' };
        expect(guard(route.path, as(role)), `${role} on ${route.path}`).toEqual(expected);
      }
    }
  });

  it('sends a manager who types /manage/users to /unauthorized', () => {
    expect(guard('/manage/users', as('manager'))).toEqual({ kind: 'redirect', to: '/unauthorized' });
    expect(guard('/manage/users', as('manager', 'admin'))).toEqual({ kind: 'allow' });
  });

  it('judges a child by its own list: an admin may open /import/jobs but not /import/upload', () => {
    expect(guard('/import/jobs', as('admin'))).toEqual({ kind: 'allow' });
    expect(guard('/import/upload', as('admin'))).toEqual({ kind: 'redirect', to: '/unauthorized' });
  });

  it('covers every path of the table for a visitor without a token', () => {
    for (const r of WEB_ROUTES.flatMap((x) => flattenRoutes([x]))) {
      const d = guard(r.path, out);
      if (r.redirect) expect(d).toEqual({ kind: 'redirect', to: r.redirect });
      else if (isPublicPath(r.path)) expect(d).toEqual({ kind: 'allow' });
      else expect(d).toEqual({ kind: 'redirect', to: loginPath(r.path) });
    }
  });
});
