import type { Role } from '../auth/roles.ts';

/** One entry of the web route table (docs/product.md §3.1). */
export interface WebRoute {
  path: string;
  title?: string;
  /** Roles allowed; undefined means open to any logged-in user and hidden from the menu. */
  roles?: readonly Role[];
  redirect?: string;
  hidden?: boolean;
  children?: readonly WebRoute[];
}

export const PRODUCT_TITLE = 'GDB-IMPORTER';
export const IMPORT_TITLE = 'GDB Importer';

export const PUBLIC_PATHS = ['/login', '/create-password', '/reset-password', '/forgotten', '/404'] as const;

const U_M_S: readonly Role[] = ['user', 'manager', 'super-admin'];
const M_S: readonly Role[] = ['manager', 'super-admin'];
const ALL: readonly Role[] = ['user', 'manager', 'admin', 'super-admin'];

/** The whole route table: menu, guard and breadcrumb read it. */
export const WEB_ROUTES: readonly WebRoute[] = [
  { path: '/', redirect: '/login', hidden: true },
  { path: '/login', hidden: true },
  // The spec gives these no title; the tab names them all the same (docs/decisions.md).
  { path: '/create-password', title: 'Create password', hidden: true },
  { path: '/reset-password', title: 'Create password', hidden: true },
  { path: '/forgotten', title: 'Forgotten password', hidden: true },
  { path: '/404', hidden: true },
  {
    path: '/import',
    title: 'Update data',
    roles: U_M_S,
    redirect: '/import/upload',
    children: [
      { path: '/import/upload', title: 'Upload new file', roles: U_M_S },
      { path: '/import/jobs', title: 'Manage jobs', roles: ['admin', 'manager', 'super-admin'] },
      // The review of an upload's rows, opened from its upload (the testing view's too): not in the menu.
      { path: '/import/review', title: 'Review rows', roles: ALL, hidden: true },
    ],
  },
  {
    path: '/export',
    title: 'Export',
    roles: U_M_S,
    redirect: '/export/index',
    children: [{ path: '/export/index', title: 'Download latest files', roles: U_M_S }],
  },
  {
    path: '/consult',
    title: 'Consult',
    // A plain user's logbook lists the imports of their own pipelines (docs/decisions.md).
    roles: U_M_S,
    redirect: '/consult/upload',
    children: [
      { path: '/consult/upload', title: 'Upload', roles: M_S },
      { path: '/consult/import', title: 'Import', roles: U_M_S },
    ],
  },
  {
    path: '/manage',
    title: 'Manage',
    roles: ['manager', 'admin', 'super-admin'],
    redirect: '/manage/pipeline',
    children: [
      { path: '/manage/pipeline', title: 'Pipelines', roles: M_S },
      { path: '/manage/schemas', title: 'Data Models', roles: M_S },
      { path: '/manage/components', title: 'Components', roles: M_S },
      { path: '/manage/update-lock-pipeline', title: 'Updates', roles: M_S },
      { path: '/manage/users', title: 'Users', roles: ['admin', 'super-admin'] },
      { path: '/manage/endpoints', title: 'Manage endpoints', roles: ['super-admin', 'manager'] },
      { path: '/manage/listeners', title: 'Manage listeners', roles: ['super-admin', 'manager'] },
      { path: '/manage/sdk', title: 'Sdk', roles: ['super-admin'] },
      { path: '/manage/documentation', title: 'Documentation', roles: ['super-admin', 'manager'] },
    ],
  },
  {
    path: '/testing',
    title: 'Testing View',
    roles: ALL,
    redirect: '/testing/index',
    children: [{ path: '/testing/index', title: 'Testing View', roles: ALL }],
  },
  // Beyond the specification: who changed what (docs/product.md §6.9).
  {
    path: '/activity',
    title: 'Activity',
    roles: ['admin', 'super-admin'],
    redirect: '/activity/index',
    children: [{ path: '/activity/index', title: 'Activity', roles: ['admin', 'super-admin'] }],
  },
  { path: '/unauthorized', redirect: '/unauthorized/index', hidden: true },
  { path: '/unauthorized/index', hidden: true },
];

/** The path without its trailing slashes ('/' stays '/'); a missing leading slash is added. */
export function normalizePath(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  const trimmed = withSlash.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Every route, parents and children, in table order. */
export function flattenRoutes(routes: readonly WebRoute[] = WEB_ROUTES): WebRoute[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

/** The route whose path is exactly `path` (trailing slashes ignored), if any. */
export function findRoute(path: string, routes: readonly WebRoute[] = WEB_ROUTES): WebRoute | undefined {
  const clean = normalizePath(path);
  return flattenRoutes(routes).find((r) => r.path === clean);
}

/** True for the pages anyone may open without signing in. */
export function isPublicPath(path: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(normalizePath(path));
}

/** The chain of routes from the top of the table down to `path` (for the breadcrumb). */
export function routeTrail(path: string, routes: readonly WebRoute[] = WEB_ROUTES): WebRoute[] {
  const clean = normalizePath(path);
  for (const r of routes) {
    if (r.path === clean) return [r];
    const below = routeTrail(clean, r.children ?? []);
    if (below.length > 0) return [r, ...below];
  }
  return [];
}

/** The browser tab title: the route title followed by the product title, or the product title alone. */
export function pageTitle(path: string): string {
  const title = findRoute(path)?.title;
  return title ? `${title} - ${PRODUCT_TITLE}` : PRODUCT_TITLE;
}

/** True when a signed-in user with these roles may open the route (no authorize list: anyone signed in). */
export function canOpen(route: WebRoute, roles: readonly string[]): boolean {
  if (!route.roles) return true;
  const allowed: readonly string[] = route.roles;
  return roles.some((r) => allowed.includes(r));
}

function inMenu(route: WebRoute, roles: readonly string[]): boolean {
  return !route.hidden && route.roles !== undefined && canOpen(route, roles);
}

export interface MenuEntry {
  path: string;
  title: string;
  children?: MenuEntry[];
}

/**
 * The sidebar for these roles: hidden and forbidden entries out, and pages `shown` refuses (not
 * built yet); a parent with one visible child collapsed into that child.
 */
export function menuFor(
  roles: readonly string[],
  routes: readonly WebRoute[] = WEB_ROUTES,
  shown: (path: string) => boolean = () => true,
): MenuEntry[] {
  const entries: MenuEntry[] = [];
  for (const r of routes) {
    if (!inMenu(r, roles)) continue;
    const title = r.title ?? r.path;
    if (!r.children) {
      if (shown(r.path)) entries.push({ path: r.path, title });
      continue;
    }
    const kids = menuFor(roles, r.children, shown);
    const [only] = kids;
    if (kids.length === 1 && only) entries.push({ path: only.path, title });
    else if (kids.length > 1) entries.push({ path: r.path, title, children: kids });
  }
  return entries;
}

/** Where `/login` sends a user who is already signed in. */
export function homePathFor(roles: readonly string[]): string {
  return roles.includes('admin') ? '/manage' : '/import';
}

/** Where a successful sign-in lands when no redirect was asked for. */
export function landingAfterLogin(roles: readonly string[]): string {
  return roles.includes('admin') ? '/manage/users' : '/import';
}

/** `/login` with a redirect back to `target` (a path, optionally with its query). */
export function loginPath(target?: string): string {
  if (!target) return '/login';
  return `/login?redirect=${encodeURIComponent(target).replaceAll('%2F', '/')}`;
}

/** The redirect query value when it names a page of this app; anything else (other origins, `//host`) is dropped. */
export function safeRedirect(value: string | null | undefined): string | undefined {
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  return value;
}

/**
 * Where a route with a redirect sends a visitor: its target, or, when the visitor's roles may
 * not open the target, the first child they may open (an admin's /manage goes to /manage/users).
 */
export function redirectTarget(route: WebRoute, roles: readonly string[] = []): string | undefined {
  if (!route.redirect) return undefined;
  const target = findRoute(route.redirect);
  if (roles.length === 0 || !target || canOpen(target, roles)) return route.redirect;
  return route.children?.find((c) => canOpen(c, roles))?.path ?? route.redirect;
}

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

export interface GuardSession {
  /** An access or a refresh token is stored. */
  hasToken: boolean;
  /** The role names from the user info; undefined while not loaded. */
  roles?: readonly string[];
}

/**
 * The route guard of docs/product.md §3.2 as a pure decision for `path` (with its `search`, kept in
 * the redirect back to it). With a token, the caller loads the user info before asking.
 */
export function guard(path: string, session: GuardSession, search = ''): GuardDecision {
  const clean = normalizePath(path);
  const route = findRoute(clean);
  if (!route) return { kind: 'redirect', to: '/404' };
  const roles = session.roles ?? [];
  const target = redirectTarget(route, roles);
  if (target) return { kind: 'redirect', to: target };
  if (clean === '/login' && session.hasToken && roles.length > 0) return { kind: 'redirect', to: homePathFor(roles) };
  if (isPublicPath(clean)) return { kind: 'allow' };
  const back = loginPath(`${clean}${search}`);
  if (!session.hasToken || roles.length === 0) return { kind: 'redirect', to: back };
  if (!canOpen(route, roles)) return { kind: 'redirect', to: '/unauthorized' };
  return { kind: 'allow' };
}
