import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FORM_CHECK_SETTING, formCheckPrefixProblem, parseFormCheckUrls, settingEntries } from '@gdb/shared/schemas/form-checks';
import { SCHEMA_LIMITS } from '@gdb/shared/schemas/schemas.schemas';
import { moduleSpecProblem } from '@gdb/shared/sdk/sdk.schemas';
import { z } from 'zod';
import { parseRange } from './cidr.ts';
import { DEFAULT_POOL_SIZE } from './db/index.ts';
import { type TrustProxy, trustProxySetting } from './http/trust-proxy.ts';

/** The server package's folder: the nearest holding a package.json, from the sources as from the build (dist/). */
function serverPackage(from: string): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A comma-separated list of URL prefixes, each checked on its own. */
const urlPrefixes = z.string().superRefine((text, check) => {
  for (const entry of settingEntries(text)) {
    const problem = formCheckPrefixProblem(entry);
    if (problem) check.addIssue({ code: 'custom', message: `${FORM_CHECK_SETTING}: ${problem}` });
  }
});

/** Host names (no scheme, port or path), compared in lower case. */
const hostNames = z.string().superRefine((text, check) => {
  for (const entry of settingEntries(text)) {
    if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i.test(entry)) {
      check.addIssue({
        code: 'custom',
        message: `${entry} is not a host name (no scheme, port or path; an IPv6 address in brackets)`,
      });
    }
  }
});

/** CIDR ranges (`10.20.0.0/16`). */
const addressRanges = z.string().superRefine((text, check) => {
  for (const entry of settingEntries(text)) {
    if (!parseRange(entry)) check.addIssue({ code: 'custom', message: `${entry} is not an address range such as 10.20.0.0/16` });
  }
});

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  BASE_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/, 'BASE_PATH must start with / and not end with /')
    .default('/gdb-importer/v1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(DEFAULT_POOL_SIZE),
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('GDB Importer <no-reply@localhost>'),
  ADMIN_USERNAME: z.string().min(8).max(50).default('super.admin'),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  ADMIN_EMAIL: z.string().email().default('admin@localhost.localdomain'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  APP_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).default(900),
  SESSION_CACHE_S: z.coerce.number().int().min(0).max(60).default(5),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .default(30 * 24 * 3600),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  HTTP_REQUEST_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(300),
  HTTP_IDLE_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).optional(),
  HTTP_MIN_BODY_RATE_KIB: z.coerce.number().min(0).max(1024).default(1),
  HTTP_ACTIVE_READS: z.coerce.number().int().min(0).max(10000).default(10),
  LIVE_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).max(1000).default(20),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: trustProxySetting.default(false),
  PUBLIC_API_DOCS: bool.default(false),
  TFA_REQUIRED: z.enum(['admins', 'all', 'none']).default('admins'),
  DEMO_DATA: bool.default(true),
  ACCESS_LOCKED_ONLY: bool.default(false),
  FILE_STORE: z.enum(['local', 'database']).optional(),
  FILE_CACHE_MIB: z.coerce.number().int().min(0).max(4096).default(64),
  FILE_SWEEP_GRACE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(24),
  SIGNIN_ACCOUNT_LIMIT: z.coerce.number().int().min(1).max(100000).default(20),
  SIGNIN_ADDRESS_LIMIT: z.coerce.number().int().min(1).max(100000).default(100),
  UPLOAD_IN_FLIGHT_MIB: z.coerce.number().int().min(1).max(65536).default(512),
  UPLOAD_MAX_INFLATED_MIB: z.coerce.number().int().min(1).max(16384).default(256),
  UPLOAD_MAX_INFLATE_RATIO: z.coerce.number().int().min(2).max(10000).default(100),
  IMPORT_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(4),
  IMPORT_RUN_MEMORY_MIB: z.coerce.number().int().min(16).max(16384).default(512),
  IMPORT_RUN_TIMEOUT_MIN: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  IMPORT_WAIT_FOR_CHECKS_S: z.coerce.number().int().min(0).max(3600).default(60),
  IMPORT_LEASE_S: z.coerce.number().int().min(3).max(3600).default(30),
  RUNTIME_MEMORY_MIB: z.coerce.number().int().min(16).max(8192).default(128),
  RUNTIME_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  RUNTIME_POOL_SIZE: z.coerce.number().int().min(1).max(64).optional(),
  RUNTIME_QUEUE_LIMIT: z.coerce.number().int().min(0).default(5000),
  RUNTIME_TEST_POOL_SIZE: z.coerce.number().int().min(1).max(64).default(2),
  RUNTIME_TEST_RUNS_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
  RUNTIME_TEST_QUEUE_PER_USER: z.coerce.number().int().min(0).max(1000).default(4),
  RUNTIME_MAX_OUTPUT_MIB: z.coerce.number().int().min(1).max(1024).default(64),
  RUNTIME_MAX_LOG_ENTRIES: z.coerce.number().int().min(1).default(1000),
  RUNTIME_MAX_LOG_KIB: z.coerce.number().int().min(1).default(1024),
  FORM_CHECK_URLS: urlPrefixes.optional(),
  SDK_MODULES: z
    .string()
    .default('dayjs')
    .refine((v) => settingEntries(v).every((name) => moduleSpecProblem(name, '') === null), {
      message: 'each entry must be an npm package name (no path, URL or git spec)',
    }),
  SDK_ADVISORIES: z.string().max(4096).optional(),
  REALTIME_SOURCE_HOSTS: hostNames.optional(),
  REALTIME_SOURCE_PRIVATE_RANGES: addressRanges.optional(),
  LISTENERS_ENABLED: bool.default(true),
  LISTENER_PRIVATE_RANGES: addressRanges.optional(),
  LISTENER_BACKOFF_MIN_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  LISTENER_BACKOFF_MAX_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),

  SCHEMA_MAX_KIB: z.coerce.number().int().min(1).max(65536).default(256),
  SCHEMA_MAX_DEPTH: z.coerce.number().int().min(4).max(SCHEMA_LIMITS.depth).default(64),
  SCHEMA_MAX_ENUM_VALUES: z.coerce.number().int().min(1).default(2000),
  SCHEMA_MAX_EXPANDED_SCHEMAS: z.coerce.number().int().min(1).default(1000),
  SCHEMA_COMPILE_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  SCHEMA_COMPILE_MEMORY_MIB: z.coerce.number().int().min(16).max(16384).default(256),
  UPLOAD_CHECK_TIMEOUT_S: z.coerce.number().int().min(1).max(86400).default(120),
});

export type Config = {
  port: number;
  host: string;
  basePath: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections the PostgreSQL pool opens at most (the embedded database has one session). */
  dbPoolSize: number;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  admin: { username: string; password: string | undefined; email: string };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  appSecret: string | undefined;
  accessTokenTtl: number;
  /** How long a verified access token is taken without reading its session again, in ms (0: never): the bound on a revocation made by another instance when its notification is lost. */
  sessionCacheMs: number;
  refreshTokenTtl: number;
  bodyLimit: number;
  /** Time limits of an HTTP request, in ms: the whole request received, a socket with no traffic, and the slowest body accepted (bytes/s over each window; 0: any). */
  http: {
    requestTimeoutMs: number;
    idleTimeoutMs: number;
    minBodyBytesPerSecond: number;
    bodyRateWindowMs: number;
    /** API reads worked on at once; the others wait their turn (0: no limit). */
    activeReads: number;
  };
  /** Live-data sockets one user may hold on one instance. */
  liveMaxSocketsPerUser: number;
  webDist: string;
  /** Proxies believed about the client's address: none, the nearest N hops, or these addresses. */
  trustProxy: TrustProxy;
  /** Whether the API description at BASE_PATH/docs answers callers who are not signed in. */
  publicApiDocs: boolean;
  /** Who must use two-factor sign-in: admins and super-admins, everyone, or no one (accounts that set it up keep it). */
  tfaRequired: 'admins' | 'all' | 'none';
  /** Whether a new install gets the demo pipelines. */
  demoData: boolean;
  /** The document access check's locked-only rule: write refused to all but super-admins once a version of the document is locked. */
  accessLockedOnly: boolean;
  fileStore: 'local' | 'database' | undefined;
  /** Recent files the database file store keeps in memory, in bytes (0: none). */
  fileCacheBytes: number;
  /** Age in ms past which the hourly sweep deletes a stored file no upload references (twice the longest import run at least). */
  fileSweepGraceMs: number;
  /** Bounds of reading an uploaded file beyond the parser's defaults (spreadsheet archives' inflated bytes). */
  parseLimits: { maxInflatedBytes: number; maxInflateRatio: number };
  /** Failed sign-ins (and two-factor codes) allowed per 15 minutes on one account from any address, and from one address on any accounts. */
  signInLimits: { accountMax: number; addressMax: number };
  /** Bytes of upload requests one instance holds at once; past them a new upload is answered 503. */
  uploadInFlightBytes: number;
  /** Import runs one process works at once; 0: the HTTP server works no jobs (dedicated `npm run worker` processes do). */
  importConcurrency: number;
  /** Limits of a pipeline's component in an import run (test runs keep the runtime's own). */
  importRun: { memoryMiB: number; timeoutMs: number };
  /** How long a run waits for the checks of its uploads still being checked when it starts, in ms. */
  importWaitForChecksMs: number;
  /** A running import's lease not renewed for this long belongs to a worker that is gone. */
  importLeaseMs: number;
  /** Component runs (isolated-vm): per-run limits of a test run, isolates kept warm, runs allowed to wait. */
  runtime: {
    memoryMiB: number;
    timeoutMs: number;
    /** Isolates of import runs. */
    poolSize: number;
    queueLimit: number;
    /** Isolates of test runs (component and SDK editors), apart from the imports' ones. */
    testPoolSize: number;
    /** Test runs one user may have going at once, and waiting beyond those. */
    testRunsPerUser: number;
    testQueuePerUser: number;
    maxOutputChars: number;
    maxLogEntries: number;
    maxLogChars: number;
    /** Compiling a data model's validator, in a worker thread of its own: its time and heap limits. */
    modelCompile: { timeoutMs: number; memoryMiB: number };
  };
  /** URL prefixes of the check services a form's ajax rule may ask (GET only, no token); none by default. */
  formCheckUrls: string[];
  /**
   * SDK functions: the npm modules they may use (names, taken from the server's own node_modules),
   * and the operator's OSV advisory set (a file path or an http(s) URL) the vulnerability report reads.
   */
  sdk: { modules: string[]; advisories: string | undefined };
  /** Where real-time sources are fetched from: these host names only (none by default), and internal addresses only in these ranges. */
  realtimeSources: { hosts: string[]; privateRanges: string[] };
  /**
   * Published listeners: whether this instance consumes them, the internal ranges (CIDR) a broker
   * may be in (none by default), and the bounds of the wait before a reconnect, in ms.
   */
  listeners: { enabled: boolean; privateRanges: string[]; backoffMinMs: number; backoffMaxMs: number };

  /** What a data model may hold on save: JSON bytes, nesting, values of one enum, schemas once its references are expanded. */
  schemaBounds: { maxBytes: number; maxDepth: number; maxEnumValues: number; maxExpandedSchemas: number };
  /** Time one uploaded file's read and check may take in a parse worker, in ms. */
  uploadCheckTimeoutMs: number;
};

/** Reads the configuration from the environment, failing with every problem at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(clean);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    basePath: e.BASE_PATH,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    dbPoolSize: e.DB_POOL_SIZE,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    admin: { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD, email: e.ADMIN_EMAIL },
    logLevel: e.LOG_LEVEL,
    appSecret: e.APP_SECRET,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    sessionCacheMs: e.SESSION_CACHE_S * 1000,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    bodyLimit: e.BODY_LIMIT,
    http: {
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_S * 1000,
      // A test run answers only when it ends: the socket must outlive the run's limit.
      idleTimeoutMs:
        e.HTTP_IDLE_TIMEOUT_S !== undefined ? e.HTTP_IDLE_TIMEOUT_S * 1000 : Math.max(120_000, e.RUNTIME_TIMEOUT_MS + 30_000),
      minBodyBytesPerSecond: Math.round(e.HTTP_MIN_BODY_RATE_KIB * 1024),
      bodyRateWindowMs: 20_000,
      activeReads: e.HTTP_ACTIVE_READS,
    },
    liveMaxSocketsPerUser: e.LIVE_MAX_SOCKETS_PER_USER,
    webDist: path.resolve(e.WEB_DIST ?? path.join(serverPackage(import.meta.dirname), '../web/dist')),
    trustProxy: e.TRUST_PROXY,
    publicApiDocs: e.PUBLIC_API_DOCS,
    tfaRequired: e.TFA_REQUIRED,
    demoData: e.DEMO_DATA,
    accessLockedOnly: e.ACCESS_LOCKED_ONLY,
    fileStore: e.FILE_STORE,
    fileCacheBytes: e.FILE_CACHE_MIB * 1024 * 1024,
    fileSweepGraceMs: Math.max(e.FILE_SWEEP_GRACE_HOURS * 3_600_000, 2 * e.IMPORT_RUN_TIMEOUT_MIN * 60_000),
    signInLimits: { accountMax: e.SIGNIN_ACCOUNT_LIMIT, addressMax: e.SIGNIN_ADDRESS_LIMIT },
    uploadInFlightBytes: e.UPLOAD_IN_FLIGHT_MIB * 1024 * 1024,
    parseLimits: { maxInflatedBytes: e.UPLOAD_MAX_INFLATED_MIB * 1024 * 1024, maxInflateRatio: e.UPLOAD_MAX_INFLATE_RATIO },
    importConcurrency: e.IMPORT_CONCURRENCY,
    importRun: { memoryMiB: e.IMPORT_RUN_MEMORY_MIB, timeoutMs: e.IMPORT_RUN_TIMEOUT_MIN * 60_000 },
    importWaitForChecksMs: e.IMPORT_WAIT_FOR_CHECKS_S * 1000,
    importLeaseMs: e.IMPORT_LEASE_S * 1000,
    runtime: {
      memoryMiB: e.RUNTIME_MEMORY_MIB,
      timeoutMs: e.RUNTIME_TIMEOUT_MS,
      poolSize: e.RUNTIME_POOL_SIZE ?? Math.max(2, os.availableParallelism()),
      queueLimit: e.RUNTIME_QUEUE_LIMIT,
      testPoolSize: e.RUNTIME_TEST_POOL_SIZE,
      testRunsPerUser: e.RUNTIME_TEST_RUNS_PER_USER,
      testQueuePerUser: e.RUNTIME_TEST_QUEUE_PER_USER,
      maxOutputChars: e.RUNTIME_MAX_OUTPUT_MIB * 1024 * 1024,
      maxLogEntries: e.RUNTIME_MAX_LOG_ENTRIES,
      maxLogChars: e.RUNTIME_MAX_LOG_KIB * 1024,
      modelCompile: { timeoutMs: e.SCHEMA_COMPILE_TIMEOUT_MS, memoryMiB: e.SCHEMA_COMPILE_MEMORY_MIB },
    },
    formCheckUrls: parseFormCheckUrls(e.FORM_CHECK_URLS),
    sdk: { modules: settingEntries(e.SDK_MODULES), advisories: e.SDK_ADVISORIES },
    realtimeSources: {
      hosts: settingEntries(e.REALTIME_SOURCE_HOSTS).map((h) => h.toLowerCase()),
      privateRanges: settingEntries(e.REALTIME_SOURCE_PRIVATE_RANGES),
    },
    listeners: {
      enabled: e.LISTENERS_ENABLED,
      privateRanges: settingEntries(e.LISTENER_PRIVATE_RANGES),
      backoffMinMs: e.LISTENER_BACKOFF_MIN_MS,
      backoffMaxMs: Math.max(e.LISTENER_BACKOFF_MIN_MS, e.LISTENER_BACKOFF_MAX_MS),
    },

    schemaBounds: {
      maxBytes: e.SCHEMA_MAX_KIB * 1024,
      maxDepth: e.SCHEMA_MAX_DEPTH,
      maxEnumValues: e.SCHEMA_MAX_ENUM_VALUES,
      maxExpandedSchemas: e.SCHEMA_MAX_EXPANDED_SCHEMAS,
    },
    uploadCheckTimeoutMs: e.UPLOAD_CHECK_TIMEOUT_S * 1000,
    ...overrides,
  };
}
