import type { Role } from '../auth/roles.ts';

/** Who may call an API route: anyone, any signed-in user, or the listed roles. */
export type Access = 'public' | 'authenticated' | readonly Role[];

const ALL: readonly Role[] = ['user', 'manager', 'admin', 'super-admin'];
/** The authoring screens' roles: Data Models and Components (docs/product.md §18). */
const AUTHORS: readonly Role[] = ['manager', 'super-admin'];

/** The version calls of a versioned kind below its path (docs/product.md §18.1). */
export const VERSION_CALLS = [
  'GET version',
  'POST version/lock',
  'POST version/new',
  'POST version/delete',
  'GET version/compute',
  'POST version/update',
] as const;
type VersionCall = (typeof VERSION_CALLS)[number];
type VersionRouteKey<P extends string, C extends VersionCall = VersionCall> = C extends `${infer M} ${infer R}`
  ? `${M} ${P}/${R}`
  : never;

/** The route keys of the version calls below `path`, each with the same value. */
export function versionRouteKeys<P extends string, T>(path: P, value: (call: VersionCall) => T): Record<VersionRouteKey<P>, T> {
  const entries = VERSION_CALLS.map((call) => {
    const [method, rest] = call.split(' ');
    return [`${method} ${path}/${rest}`, value(call)];
  });
  return Object.fromEntries(entries) as Record<VersionRouteKey<P>, T>;
}

/**
 * Every API route, as `METHOD /path` below the base path, with the roles it admits.
 * The server refuses a route missing here; the web hides what the roles cannot reach.
 */
export const API_ACCESS = {
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  'POST /users/login': 'public',
  'POST /users/refresh-token': 'public',
  'POST /users/logout': 'authenticated',
  'GET /users/info': 'authenticated',
  'POST /users/tfa': 'public',
  'POST /users/create-password': 'public',
  'POST /users/forgotten': 'public',
  'GET /users': ['admin', 'super-admin'],
  'POST /users': ['admin', 'super-admin'],
  'POST /users/toggle': ['admin', 'super-admin'],
  'DELETE /users': ['admin', 'super-admin'],
  'POST /users/reset-password': ['admin', 'super-admin'],
  'POST /users/reset-tfa': ['admin', 'super-admin'],
  'GET /users/pipelinesFor': ['admin', 'super-admin'],
  'GET /tags/list': ALL,
  'GET /tags/cache-reload': ALL,
  'POST /tags': ['super-admin'],
  'DELETE /tags': ['super-admin'],
  // Badges on folders and documents: the 'Manage badges' entry of the explorer is the admins' (docs/product.md §18.4).
  'POST /tags/update-document-tags': ['admin', 'super-admin'],
  // Folders (docs/product.md §18.3): the tree and new folders wherever a tree shows (the pipeline tree in the testing view
  // too; the service admits each kind's screen roles); renaming, moving and deleting are the manager's and super-admin's.
  'GET /folders/tree': ALL,
  'POST /folders': ALL,
  'DELETE /folders': AUTHORS,
  'POST /folders/rename': AUTHORS,
  'POST /folders/reparent': AUTHORS,
  'POST /schemas/reparent': AUTHORS,
  'POST /components/reparent': AUTHORS,
  'POST /pipelines/reparent': AUTHORS,
  'POST /sdk/reparent': ['super-admin'],
  // Uploads: all four roles upload (the testing view is open to admin); export follows /export (docs/product.md §3.1).
  'POST /uploads': ALL,
  'GET /uploads/status': ALL,
  'GET /uploads/last': ALL,
  'GET /uploads/last-all': ALL,
  'POST /uploads/disable': ALL,
  'POST /uploads/realtime': ALL,
  // Column mappings: whoever uploads to the pipeline (a user only to those assigned to them, badges checked).
  'GET /uploads/column-mappings': ALL,
  'POST /uploads/column-mappings': ALL,
  'POST /uploads/file-head': ALL,
  'POST /uploads/export': ['user', 'manager', 'super-admin'],
  'GET /uploads/outputs': ['user', 'manager', 'super-admin'],
  // The review of an upload's rows: whoever may use the upload's pipeline (the service checks it).
  'GET /uploads/:id/review': ALL,
  'POST /uploads/:id/corrections': ALL,
  'POST /uploads/:id/submit': ALL,
  'GET /uploads/:id/problems': ALL,
  // The activity record: administrators, each reading the documents their badges open.
  'GET /activity': ['admin', 'super-admin'],
  'GET /activity/export': ['admin', 'super-admin'],
  // Logs: read like the uploads' or the import's pipeline.
  'GET /logs/uploads': ALL,
  'GET /logs/jobs': ALL,
  // Imports: creating and running (/import/upload), manage jobs (/import/jobs), logbook (/consult/import).
  'POST /imports': ['user', 'manager', 'super-admin'],
  'POST /imports/runAllImport': ['user', 'manager', 'super-admin'],
  'POST /imports/job': ['user', 'manager', 'super-admin'],
  'GET /imports/job': ['user', 'manager', 'super-admin'],
  'DELETE /imports': ['user', 'manager', 'super-admin'],
  'GET /imports/pipeline': ['user', 'manager', 'super-admin'],
  'GET /imports/listScheduled': ['admin', 'manager', 'super-admin'],
  // The wizard deletes a Later job when switching to Now; the service refuses kinds the caller may not create.
  'DELETE /imports/job': ['user', 'admin', 'manager', 'super-admin'],
  // A plain user's logbook lists the imports of their own pipelines (docs/decisions.md).
  'GET /imports/listAll': ['user', 'manager', 'super-admin'],
  'GET /imports/listAllFilters': ['user', 'manager', 'super-admin'],
  'POST /imports/abort': ['manager', 'super-admin'],
  'POST /imports/abort-all': ['super-admin'],
  'GET /locales/list': ALL,
  'GET /brands/list': ALL,
  'GET /productlines/list': ALL,
  'GET /datakinds/list': ALL,
  'GET /pipelines': ['manager', 'admin', 'super-admin'],
  'GET /pipelines/id': ALL,
  'GET /pipelines/masters': ALL,
  'GET /pipelines/pipelinesOfMaster': ALL,
  'POST /pipelines': AUTHORS,
  'DELETE /pipelines': AUTHORS,
  'GET /users/pipelines': ALL,
  // Endpoints (docs/product.md §18.7): the Endpoints screen's roles, and the wizard's publish panel.
  'POST /pipelines/publish-endpoint': AUTHORS,
  'GET /pipelines/get-runtime-api-url': AUTHORS,
  'GET /pipelines/deployed-endpoint': AUTHORS,
  'GET /pipelines/deployed-endpoint/:id': AUTHORS,
  'GET /pipelines/deployed-endpoint/:id/openapi': AUTHORS,
  'DELETE /pipelines/deployed-endpoint': AUTHORS,
  // Listeners (docs/product.md §18.7): the Listeners screen's roles, and the wizard's publish panel.
  'POST /pipelines/publish-listener': AUTHORS,
  'GET /pipelines/deployed-listener': AUTHORS,
  'GET /pipelines/deployed-listener/:id': AUTHORS,
  'DELETE /pipelines/deployed-listener': AUTHORS,
  // Pipeline versions: the pipelines screen and the update and lock screen (docs/product.md §18.6).
  ...versionRouteKeys('/pipelines', () => AUTHORS),
  'GET /pipelines/version/mass-compute': AUTHORS,
  'POST /pipelines/version/mass-lock': AUTHORS,
  'POST /pipelines/version/mass-update': AUTHORS,
  // Components (docs/product.md §16.6): manager and super-admin; the js code and cancelling a test are super-admin's (§16.5).
  'GET /components/find': ['manager', 'super-admin'],
  'GET /components/list': ['manager', 'super-admin'],
  'GET /components': ['manager', 'super-admin'],
  'POST /components': ['manager', 'super-admin'],
  'DELETE /components': ['manager', 'super-admin'],
  'GET /components/documentation': ['manager', 'super-admin'],
  'POST /components/:id/execute': ['manager', 'super-admin'],
  'GET /components/:id/js-code': ['super-admin'],
  'POST /components/:id/generate': ['super-admin'],
  'POST /components/:id/stop': ['super-admin'],
  'GET /components/:id/dependencies': ['manager', 'super-admin'],
  'GET /components/usages': ['manager', 'super-admin'],
  'POST /components/test-file': ['manager', 'super-admin'],
  ...versionRouteKeys('/components', () => AUTHORS),
  // SDK (docs/product.md §17): super-admin only.
  'GET /sdk': ['super-admin'],
  'GET /sdk/find': ['super-admin'],
  'POST /sdk': ['super-admin'],
  'DELETE /sdk': ['super-admin'],
  'POST /sdk/:name/execute': ['super-admin'],
  'GET /sdk/explorer': ['super-admin'],
  'GET /sdk/vulnerabilities': ['super-admin'],
  'GET /sdk/usages': ['super-admin'],
  ...versionRouteKeys('/sdk', () => ['super-admin'] as const),
  // Data models (docs/product.md §18.2): manager and super-admin, like the editor.
  'GET /schemas/byname': AUTHORS,
  'GET /schemas': AUTHORS,
  'GET /schemas/find': AUTHORS,
  'GET /schemas/list': AUTHORS,
  'POST /schemas': AUTHORS,
  'DELETE /schemas': AUTHORS,
  'POST /schemas/cache-clear': AUTHORS,
  'POST /schemas/generate': AUTHORS,
  ...versionRouteKeys('/schemas', () => AUTHORS),
} as const satisfies Record<string, Access>;

export type ApiRouteKey = keyof typeof API_ACCESS;

/** The policy of a route key, or undefined when the table has none. */
export function accessOf(key: string): Access | undefined {
  return (API_ACCESS as Record<string, Access>)[key];
}

/** True when a caller with these roles passes the policy (signed-in callers only). */
export function allows(access: Access, roles: readonly string[]): boolean {
  if (access === 'public' || access === 'authenticated') return true;
  return roles.some((r) => (access as readonly string[]).includes(r));
}
