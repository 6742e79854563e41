import crypto from 'node:crypto';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { accessHooks, type DocumentAccess, documentAccessService } from './modules/access/access.service.ts';
import { activityRoutes } from './modules/activity/activity.routes.ts';
import { type ActivityService, activityService } from './modules/activity/activity.service.ts';
import { recordedUserAdmin, recordedVersions } from './modules/activity/activity-hooks.ts';
import { type AccountService, accountService } from './modules/auth/account.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { type AuthService, authService } from './modules/auth/auth.service.ts';
import { throttleService } from './modules/auth/throttle.service.ts';
import { componentsRoutes } from './modules/components/components.routes.ts';
import { type ComponentsService, componentsService } from './modules/components/components.service.ts';
import { testFileRoute } from './modules/components/test-file.route.ts';
import { testLogsLiveCollection } from './modules/components/test-logs.live.ts';
import { datastoreService } from './modules/datastore/datastore.service.ts';
import { type EndpointCallDeps, endpointCalls } from './modules/endpoints/endpoint-calls.ts';
import { endpointsRoutes } from './modules/endpoints/endpoints.routes.ts';
import { endpointsService } from './modules/endpoints/endpoints.service.ts';
import { runtimeRoutes } from './modules/endpoints/runtime.routes.ts';
import { foldersRoutes } from './modules/folders/folders.routes.ts';
import { type FoldersService, foldersService } from './modules/folders/folders.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { importsLiveCollection, pipelinesOfImports } from './modules/imports/imports.live.ts';
import { importsRoutes } from './modules/imports/imports.routes.ts';
import { type FeedRunner, type ImportsService, importsService } from './modules/imports/imports.service.ts';
import { type ListenerRuntime, listenerRuntime } from './modules/listeners/listener-runtime.ts';
import { listenersRoutes } from './modules/listeners/listeners.routes.ts';
import { listenersService } from './modules/listeners/listeners.service.ts';
import { logsLiveCollection } from './modules/logs/logs.live.ts';
import { logsRoutes } from './modules/logs/logs.routes.ts';
import { type LogsService, logsService } from './modules/logs/logs.service.ts';
import type { PipelineImports } from './modules/pipelines/pipeline-delete.ts';
import { pipelinesRoutes } from './modules/pipelines/pipelines.routes.ts';
import { type PipelinesService, pipelinesService } from './modules/pipelines/pipelines.service.ts';
import { referenceRoutes } from './modules/reference/reference.routes.ts';
import { referenceService } from './modules/reference/reference.service.ts';
import { schemasRoutes } from './modules/schemas/schemas.routes.ts';
import { type SchemasService, schemasService } from './modules/schemas/schemas.service.ts';
import { advisoryCheck } from './modules/sdk/advisories.ts';
import { sdkRoutes } from './modules/sdk/sdk.routes.ts';
import { sdkService } from './modules/sdk/sdk.service.ts';
import { documentTagsService } from './modules/tags/document-tags.service.ts';
import { tagsRoutes } from './modules/tags/tags.routes.ts';
import { tagsService } from './modules/tags/tags.service.ts';
import { createParsePool } from './modules/uploads/parsing/parse-pool.ts';
import { reviewRoutes } from './modules/uploads/review.routes.ts';
import { reviewService } from './modules/uploads/review.service.ts';
import { uploadBudget } from './modules/uploads/upload-budget.ts';
import { uploadDataModel } from './modules/uploads/upload-deps.ts';
import { pipelinesOfUploads, uploadsLiveCollection } from './modules/uploads/uploads.live.ts';
import { uploadsRoutes } from './modules/uploads/uploads.routes.ts';
import { type UploadsService, uploadsService } from './modules/uploads/uploads.service.ts';
import { userAdminService } from './modules/users/user-admin.service.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { type UsersService, usersService } from './modules/users/users.service.ts';
import { pipelineVersionRoutes } from './modules/versions/pipeline-versions.routes.ts';
import { pipelineVersionsService } from './modules/versions/pipeline-versions.service.ts';
import { versionRoutes } from './modules/versions/versions.routes.ts';
import { versionsService } from './modules/versions/versions.service.ts';
import { type AuthContext, type RegisteredRoute, registerAccessControl } from './platform/auth/access-control.ts';
import { loadSecrets } from './platform/auth/secrets.ts';
import { followRevocations } from './platform/auth/session-cache.ts';
import type { Config } from './platform/config.ts';
import type { AppContext } from './platform/context.ts';
import { type Db, migrateToLatest, openDb } from './platform/db/index.ts';
import type { FileStore } from './platform/files/file-store.ts';
import { openFileStore } from './platform/files/open-file-store.ts';
import { apiDescriptionOptions } from './platform/http/api-description.ts';
import { apiDocsOptions } from './platform/http/api-docs.ts';
import { registerErrorHandling } from './platform/http/error-handler.ts';
import { takeReadsInTurn } from './platform/http/read-turns.ts';
import { guardSlowBodies } from './platform/http/slow-body-guard.ts';
import { fastifyTrustProxy } from './platform/http/trust-proxy.ts';
import { registerWebApp } from './platform/http/web-app.ts';
import { runWithApp } from './platform/live/change-feed.ts';
import type { LiveHub } from './platform/live/live-hub.ts';
import { registerLive } from './platform/live/register-live.ts';
import { createMailer } from './platform/mail/mailer.ts';
import { runtimeService } from './runtime/runtime.service.ts';
import { sdkModules } from './runtime/sdk-modules.ts';

export interface BuildOptions {
  /** An open database (tests share one per file); otherwise one is opened from the config. */
  db?: Db;
  /** Whether to serve the built web app (default true). */
  web?: boolean;
}

/** The imports and jobs of pipelines being deleted, reached through this hook (the imports module reads the pipelines). */
function jobsOf(imports: () => ImportsService): PipelineImports {
  return {
    assertIdle: (ids) => imports().pipelineRemoval.assertIdle(ids),
    release: (trx, ids) => imports().pipelineRemoval.release(trx, ids),
  };
}

/** What the pipelines service reads of other modules: the documents a save names, and the imports of what a delete takes. */
function pipelineNeighbours(components: ComponentsService, schemas: SchemasService, imports: () => ImportsService) {
  return {
    references: {
      components: components.byIds,
      dataModels: schemas.byIds,
    },
    imports: jobsOf(imports),
  };
}

/**
 * The SDK editor's tools: the npm modules SDK functions may use (checked on save, bundled for the
 * sandbox once per name@version), the operator's advisories, the explorer tree.
 */
function sdkEditorTools(ctx: AppContext, folders: FoldersService) {
  return {
    modules: sdkModules(ctx.config.sdk.modules),
    advisories: advisoryCheck(ctx.config.sdk.advisories),
    tree: (auth: AuthContext) => folders.tree(auth, 'sdk'),
  };
}

/** The publisher of an endpoint or listener as they are now: gone or de-activated, nobody. */
function publisherOf(users: UsersService) {
  return async (userId: string): Promise<AuthContext | undefined> => {
    const user = await users.byId(userId);
    if (!user?.is_active) return undefined;
    return { userId: user.id, sessionId: 'endpoint-call', userName: user.user_name, roles: user.roles };
  };
}

/** Published endpoints and their calls, which store uploads and start imports. */
function endpointServices(
  ctx: AppContext,
  deps: Omit<EndpointCallDeps, 'endpoints' | 'runner'> & {
    access: DocumentAccess;
    feedRunner: FeedRunner;
    schemas: SchemasService;
    components: ComponentsService;
  },
) {
  const dataModel = async (id: string) => (await deps.schemas.byIds([id]))[0]?.jsonSchema;
  const componentNames = async (ids: readonly string[]) =>
    new Map((await deps.components.byIds(ids)).map((c) => [c._id, { name: c.name, version: c.version }]));
  const endpoints = endpointsService(ctx, { pipelines: deps.pipelines, access: deps.access, dataModel, componentNames });
  return { endpoints, endpointCalls: endpointCalls({ ...deps, endpoints, runner: deps.feedRunner }) };
}

/**
 * Published listeners and this instance's consumers of them, which store batches as uploads and
 * start imports acting for the listener's last publisher while they may still change its pipeline.
 */
function listenerServices(
  ctx: AppContext,
  deps: Pick<EndpointCallDeps, 'pipelines' | 'uploads' | 'imports'> & {
    access: DocumentAccess;
    feedRunner: FeedRunner;
    uploads: Pick<UploadsService, 'receiveBatch'>;
  },
) {
  let runtime: ListenerRuntime | undefined;
  const listeners = listenersService(ctx, { pipelines: deps.pipelines, access: deps.access, changed: () => runtime?.changed() });
  runtime = listenerRuntime(ctx, {
    pipelines: deps.pipelines,
    uploads: deps.uploads,
    imports: deps.imports,
    password: listeners.passwordOf,
    runner: async (userId, pipeline) => {
      const auth = userId ? await deps.feedRunner(userId, pipeline) : undefined;
      return auth && { ...auth, sessionId: 'listener', userName: `listener ${pipeline.name}` };
    },
  });
  return { listeners, listenerRuntime: runtime };
}

/** Pipelines published as endpoints and as listeners: both act for their publisher while they may still change the pipeline. */
function publishedPipelines(
  ctx: AppContext,
  deps: Parameters<typeof endpointServices>[1] & { uploads: UploadsService; feedRunner: FeedRunner },
) {
  return { ...endpointServices(ctx, deps), ...listenerServices(ctx, deps) };
}

/**
 * Whom the runs of a feed's uploads (a listener's batches, the uploads an endpoint or listener left
 * waiting at a restart) act for: their publisher while active and still allowed to change the
 * pipeline (a manager or super-admin whose badges open it for writing), with a run's rights.
 */
function feedRunnerOf(users: UsersService, access: DocumentAccess): FeedRunner {
  const mayChangePipeline = async (auth: AuthContext, pipeline: PipelineView) => {
    if (!auth.roles.includes('manager') && !auth.roles.includes('super-admin')) return false;
    return (await access(auth)).may('write', 'pipeline', { folder: pipeline.folder, tags: pipeline.tags });
  };
  const publisher = publisherOf(users);
  return async (userId, pipeline) => {
    const auth = await publisher(userId);
    if (!auth || !(await mayChangePipeline(auth, pipeline))) return undefined;
    return { userId: auth.userId, sessionId: 'feed', userName: auth.userName, roles: ['super-admin'] };
  };
}

/** What user administration does to accounts: end a user's sessions, mail a password link. */
function accountActions(auth: AuthService, accounts: AccountService): Parameters<typeof userAdminService>[2] {
  return {
    revokeUserSessions: (userId) => auth.revokeUserSessions(userId),
    sendPasswordLink: (user, purpose) => accounts.sendPasswordLink(user, purpose),
  };
}

/** Uploads, and the review that fixes an invalid one's rows in place (each correction on record). */
function uploadServices(
  ctx: AppContext,
  n: {
    pipelines: PipelinesService;
    files: FileStore;
    schemas: SchemasService;
    logs: LogsService;
    record: ActivityService['record'];
  },
) {
  const deps = {
    pipelines: n.pipelines,
    files: n.files,
    parser: createParsePool({ timeoutMs: ctx.config.uploadCheckTimeoutMs }),
    log: (lines: Parameters<LogsService['append']>[0], k?: Parameters<LogsService['append']>[1]) => n.logs.append(lines, k),
    loadDataModel: async (id: string) => uploadDataModel((await n.schemas.byIds([id]))[0]),
  };
  const uploads = uploadsService(ctx, deps);
  return { uploads, review: reviewService(ctx, { ...deps, receive: uploads.receive, record: n.record }) };
}

/** Builds every service from one context; routes and workers receive these. */
export function buildServices(ctx: AppContext) {
  const users = usersService(ctx);
  const reference = referenceService(ctx);
  const throttle = throttleService(ctx);
  const auth = authService(ctx, users, throttle);
  const { smtpUrl, mailFrom: from, dataDir } = ctx.config;
  const mailer = createMailer({ smtpUrl, from, dataDir, log: ctx.log });
  const accounts = accountService(ctx, users, auth, mailer, throttle);
  const tags = tagsService(ctx, users);
  // The document access check reads the caller's badges and each kind's folders (built below).
  const lockedOnly = ctx.config.accessLockedOnly;
  const documentAccess = documentAccessService(
    {
      badgesOf: async (caller) => (await users.callerProfile(caller))?.badges,
      foldersOf: (kind) => folders.chainsOf(kind),
    },
    { lockedOnly },
  );
  const { badgeWriteCheck, badgeReadFilter, explorerCheck } = accessHooks(documentAccess, {
    lockedOnly,
    versionsOf: (kind, id) => versions.family(kind, id),
  });
  // Who changed what is on record (modules/activity): the version engine's writes, corrections, roles and badges.
  const activity = activityService(ctx, { openDocuments: () => versions.openIds });
  const { record } = activity;
  const versions = recordedVersions(versionsService(ctx, { badgeWriteCheck, badgeReadFilter }), record);
  const folders = foldersService(ctx, versions, { documentAccess: explorerCheck });
  const schemas = schemasService(ctx, versions, documentAccess);
  // What a component names, read for its save's checks (the SDK service, built next, reads components).
  const components = componentsService(ctx, versions, documentAccess, {
    dataModels: (executor, ids) => schemas.referenced(executor, ids),
    sdkFunctions: (ids) => sdk.referenced(ids),
  });
  const sdkTools = sdkEditorTools(ctx, folders);
  const sdk = sdkService(ctx, components, documentAccess, versions, sdkTools);
  const runtime = runtimeService({
    settings: ctx.config.runtime,
    log: ctx.log,
    sdkModules: sdkTools.modules,
    source: { components: components.byIds, schemas: schemas.byIds, sdkFunctions: sdk.byIds },
  });
  const logs = logsService(ctx);
  const neighbours = pipelineNeighbours(components, schemas, () => imports);
  const pipelines = pipelinesService(ctx, { users, reference, versions, access: documentAccess, ...neighbours });
  const files = openFileStore(ctx.config.fileStore, ctx.db, ctx.config.dataDir, ctx.config.fileCacheBytes);
  const { uploads, review } = uploadServices(ctx, { pipelines, files, schemas, logs, record });
  const datastore = datastoreService(ctx);
  const feedRunner = feedRunnerOf(users, documentAccess);
  const imports = importsService({
    ctx,
    pipelines,
    users,
    feedRunner,
    uploads,
    logs,
    datastore,
    files,
    reference,
    components: () => runtime,
  });
  return {
    ...publishedPipelines(ctx, { pipelines, uploads, imports, schemas, components, feedRunner, access: documentAccess }),
    files,
    uploads,
    review,
    activity,
    datastore,
    imports,
    versions,
    pipelineVersions: pipelineVersionsService(ctx, versions, imports),
    schemas,
    sdk,
    components,
    runtime,
    users,
    auth,
    mailer,
    accounts,
    tags,
    folders,
    documentTags: documentTagsService(ctx, folders),
    userAdmin: recordedUserAdmin(userAdminService(ctx, tags, accountActions(auth, accounts), pipelines), users.byId, record),
    reference,
    pipelines,
    logs,
  };
}

export type Services = ReturnType<typeof buildServices>;

/** Registers every module's live collections (reads, projection, read rule) with the hub. */
export function registerLiveCollections(hub: Pick<LiveHub, 'register'>, db: Db, services: Services): void {
  const k = db.kysely;
  const { pipelines } = services;
  // What the caller's badges do not open is left out of what they are sent.
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  hub.register({ ...uploadsLiveCollection(k, pipelines), visible: pipelines.liveVisible((d) => text(d.pipelineId)) });
  hub.register({ ...importsLiveCollection(k, pipelines), visible: pipelines.liveVisible((d) => text(d.pipeline)) });
  hub.register(
    logsLiveCollection(services.logs, pipelines, {
      uploads: (ids) => pipelinesOfUploads(k, ids),
      imports: (ids) => pipelinesOfImports(k, ids),
    }),
  );
  hub.register(testLogsLiveCollection(k));
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  services: Services;
  /** API routes registered without a policy in the shared table (must stay empty). */
  unprotectedRoutes: string[];
  /** Every route with its key and policy, as the access control bound them. */
  routes: RegisteredRoute[];
  /** The live-data hub (socket.io at /data-prep/v1) on the app's HTTP server. */
  live: LiveHub;
}

/** Builds the Fastify app: plugins, then platform hooks, then every module's routes. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers["x-token"]', 'req.headers["x-api-key"]', 'req.headers.authorization'],
    },
    bodyLimit: config.bodyLimit,
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.idleTimeoutMs,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
  });
  guardSlowBodies(
    app.server,
    { minBytesPerSecond: config.http.minBodyBytesPerSecond, windowMs: config.http.bodyRateWindowMs },
    app.log,
  );
  const db =
    options.db ?? (await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: config.dbPoolSize }));
  await migrateToLatest(db);
  // Added first so that it runs after every other close hook (they may still query the database).
  app.addHook('onClose', async () => {
    if (!options.db) await db.close();
  });
  const ctx: AppContext = { config, db, secrets: loadSecrets(config.appSecret, config.dataDir), log: app.log };
  const services = buildServices(ctx);
  await services.reference.seed();
  followRevocations(app, services.auth.sessions, db, config.basePath);
  const folderChanges = services.folders.followChanges(db, app.log);
  if (folderChanges) runWithApp(app, folderChanges, 'folders');

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app, config.basePath);
  const unprotectedRoutes: string[] = [];
  const routes: RegisteredRoute[] = [];
  registerAccessControl(app, {
    registered: routes,
    basePath: config.basePath,
    authenticate: (token) => services.auth.authenticate(token),
    unprotected: unprotectedRoutes,
  });
  const live = registerLive(app, {
    db,
    authenticate: (token) => services.auth.authenticate(token),
    openSessions: (ids) => services.auth.openSessions(ids),
    limits: { maxSocketsPerUser: config.liveMaxSocketsPerUser },
  });
  registerLiveCollections(live, db, services);

  await registerHeadersAndDocs(app, config);

  await app.register(healthRoutes(db));
  await registerApiRoutes(app, config, services);
  // Published endpoints' calls, outside the base path: their key is their access check.
  await app.register(runtimeRoutes(services.endpointCalls));
  if (options.web !== false) await registerWebApp(app, { dist: config.webDist, basePath: config.basePath });

  stopServicesOnClose(app, services);
  return { app, ctx, services, unprotectedRoutes, routes, live };
}

/** Security headers (a strict content security policy) and the API description with its docs page. */
async function registerHeadersAndDocs(app: FastifyInstance, config: Config): Promise<void> {
  // No nonce per answer: only the page has style elements, and it adds one of its own (web-app.ts).
  await app.register(helmet, {
    enableCSPNonces: false,
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // A form's ajax rule asks the listed check services (docs/decisions.md, "A form's ajax rule asks only listed check services").
        connectSrc: ["'self'", ...config.formCheckUrls],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(swagger, apiDescriptionOptions(config.basePath));
  await app.register(swaggerUi, {
    routePrefix: `${config.basePath}/docs`,
    staticCSP: true,
    ...apiDocsOptions(config.publicApiDocs),
  });
}

/** Every module's API routes under the base path. */
async function registerApiRoutes(app: FastifyInstance, config: Config, services: Services): Promise<void> {
  await app.register(
    async (api) => {
      takeReadsInTurn(api, config.http.activeReads);
      await api.register(authRoutes(services.auth, services.accounts));
      await api.register(usersRoutes(services.userAdmin));
      await api.register(tagsRoutes(services.tags, services.documentTags));
      await api.register(foldersRoutes(services.folders));
      await api.register(referenceRoutes(services.reference));
      await api.register(pipelinesRoutes(services.pipelines));
      await api.register(endpointsRoutes(services.endpoints));
      await api.register(listenersRoutes(services.listeners));
      // Uploads and the data models inferred from example files share one in-flight budget.
      const intake = uploadBudget(config.uploadInFlightBytes);
      await api.register(uploadsRoutes(services.uploads, intake, services.files));
      await api.register(reviewRoutes(services.review));
      await api.register(activityRoutes(services.activity));
      await api.register(importsRoutes(services.imports));
      await api.register(
        logsRoutes({
          uploadLogs: async (auth, ids) => {
            await services.uploads.statuses(auth, ids);
            return services.logs.forUploads(ids);
          },
          importLogs: (auth, id) => services.imports.importLogs(auth, id),
        }),
      );
      await api.register(componentsRoutes(services.components, services.runtime, services.sdk));
      await api.register(testFileRoute((name, bytes) => services.uploads.readFileRows(name, bytes), intake));
      await api.register(sdkRoutes(services.sdk, services.runtime));
      await api.register(schemasRoutes(services.schemas, intake));
      await api.register(versionRoutes(services.versions, 'schema', '/schemas'));
      await api.register(versionRoutes(services.versions, 'component', '/components'));
      await api.register(versionRoutes(services.versions, 'sdk', '/sdk'));
      await api.register(pipelineVersionRoutes(services.versions, services.pipelineVersions));
    },
    { prefix: config.basePath },
  );
}

/** Stops the workers and closes the services' resources when the app closes. */
function stopServicesOnClose(app: FastifyInstance, services: Services): void {
  app.addHook('onClose', async () => {
    // Listeners first: each stores the batch it gathered (an upload, maybe a run) before the rest stops.
    await services.listenerRuntime.stop();
    await services.imports.stopWorking();
    services.uploads.unwatch();
    await services.uploads.settled();
    await services.accounts.settled();
    services.mailer.close();
    services.runtime.close();
  });
}
