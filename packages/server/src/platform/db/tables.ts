import type { ColumnType, Generated } from 'kysely';

/** A timestamp column: read as Date, written as Date or ISO text, defaulted by the database. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** Set by the database on insert; writers set it on every update. */
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A JSONB column: read as parsed JSON, written as JSON text (pg would send a JS array as a SQL array). */
type JsonColumn<T> = ColumnType<T, string | undefined, string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

// users domain
export interface UsersTable {
  id: string;
  first_name: string;
  last_name: string;
  user_name: string;
  email: string;
  service: Generated<string>;
  roles: string[];
  is_active: Generated<boolean>;
  unrestricted_upload: Generated<boolean>;
  is_no_code: Generated<boolean>;
  password_hash: string | null;
  tfa_secret: string | null;
  tfa_enabled: Generated<boolean>;
  recovery_codes: Generated<string[]>;
  /** The TOTP time step last accepted (a code is never accepted twice). */
  tfa_last_step: number | null;
  admin_tags: Generated<string[]>;
  project_tags: Generated<string[]>;
  avatar: string | null;
  last_seen_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  created_by: string | null;
}

// auth domain
interface SessionsTable {
  id: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  client_ip: string | null;
  user_agent: string | null;
}

interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: CreatedAt;
  used_at: NullableTimestamp;
}

interface PasswordTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  purpose: 'create' | 'reset';
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** A sign-in waiting for its second factor; the id is given to the client, only its hash is kept. */
interface TfaChallengesTable {
  id_hash: string;
  user_id: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** Fixed-window counters of sign-in, two-factor and forgotten-password attempts. */
interface AuthThrottleTable {
  key: string;
  window_start: Timestamp;
  hits: number;
}

// tags domain
export interface TagsTable {
  id: string;
  name: string;
  type: 'group' | 'project';
  color: string | null;
  is_hidden: Generated<boolean>;
  is_metadata: Generated<boolean>;
  metadata: string | null;
  created_at: CreatedAt;
}

// reference domain
interface BrandsTable {
  id: string;
  name: string;
}
interface LocalesTable {
  id: string;
  language: string;
  country: string;
  name: string;
}
interface ProductLinesTable {
  id: string;
  name: string;
}
interface DatakindsTable {
  id: string;
  name: string;
  is_dealer: Generated<boolean>;
}

// versioned documents (pipelines, schemas, components, sdk functions) share these columns
export interface VersionColumns {
  id: string;
  family_id: string;
  version: number;
  v_locked: Generated<boolean>;
  v_parents: Generated<string[]>;
  read_only: Generated<boolean>;
  folder_id: string | null;
  tags: JsonColumn<DocumentTags>;
  metadata_tags: Generated<string[]>;
  sys_version: Generated<number>;
  created_at: CreatedAt;
  created_by: string | null;
  updated_at: UpdatedAt;
  updated_by: string | null;
}

// pipelines domain
export interface PipelinesTable extends VersionColumns {
  name: string;
  is_master: Generated<boolean>;
  master_pipeline: string | null;
  component: string | null;
  pipeline_schema: string | null;
  data_sources: JsonColumn<unknown[]>;
  data_sinks: JsonColumn<unknown[]>;
  brand: string | null;
  locale: string | null;
  product_line: string | null;
  datakind: string | null;
  is_hidden: Generated<boolean>;
}

/** Read and write badge expressions: each a list of groups, each group a list of tag ids. */
interface DocumentTags {
  read: string[][];
  write: string[][];
}

interface UserPipelinesTable {
  user_id: string;
  pipeline_family: string;
  is_active: Generated<boolean>;
}

// uploads domain
export interface UploadsTable {
  id: string;
  pipeline_id: string;
  data_sub_kind: string;
  from: 'source' | 'destination';
  status: Generated<'pending' | 'processing' | 'valid' | 'invalid'>;
  original_filename: string | null;
  content_type: string | null;
  size: Generated<number>;
  file_key: string | null;
  row_count: number | null;
  import_id: string | null;
  enabled: Generated<boolean>;
  created_at: CreatedAt;
  created_by: string | null;
  /** The checked rows as JSON text, in the file store (valid source uploads). */
  rows_key: string | null;
  claimed_at: NullableTimestamp;
  /** When an import that ended done took this source upload, and which; a run then leaves it until switched on again. */
  imported_at: NullableTimestamp;
  imported_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where a source upload was sent from: the import wizard (or a real-time fetch) or the testing view. */
  sent_from: Generated<'wizard' | 'testing'>;
  /** The upload this one corrects (made from its file and the review's corrections). */
  corrected_from: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A correction of an upload's row in the review: a cell's new value, or the row removed (field ''). */
interface UploadCorrectionsTable {
  upload_id: string;
  row_index: number;
  field: string;
  value: string | null;
  removed: Generated<boolean>;
  updated_at: UpdatedAt;
  updated_by: string | null;
}

/** A data source's column mapping for one header (its signature's SHA-256): each column → a field, or null (ignored). */
interface ColumnMappingsTable {
  pipeline_id: string;
  data_sub_kind: string;
  signature_hash: string;
  columns: JsonColumn<{ column: string; field: string | null }[]>;
  updated_at: UpdatedAt;
  updated_by: string | null;
}

// imports domain
export interface JobsTable {
  id: string;
  pipeline_id: string | null;
  job_kind: 'immediate' | 'scheduled' | 'repeat' | 'sequential';
  repeat_pattern: Generated<string>;
  scheduled_date: string | null;
  scheduled_time: string | null;
  next_run_at: NullableTimestamp;
  last_executed_at: NullableTimestamp;
  scheduled_by: string | null;
  restart_on_error: Generated<boolean>;
  list_pipelines: Generated<string[]>;
  state: Generated<string>;
  created_at: CreatedAt;
  /** The IANA time zone its dates, times and repeat pattern are read in. */
  timezone: Generated<string>;
}

type ImportState = 'pending' | 'busy' | 'progress' | 'sequential' | 'done' | 'failed' | 'aborted';

export interface ImportsTable {
  id: string;
  pipeline_id: string | null;
  job_id: string | null;
  parent_import_id: string | null;
  scheduled_at: NullableTimestamp;
  started_at: NullableTimestamp;
  end_at: NullableTimestamp;
  state: Generated<ImportState>;
  success: Generated<boolean>;
  progress: Generated<number>;
  user_id: string | null;
  destinations: Generated<string[]>;
  created_at: CreatedAt;
  /** Runs started so far (a restart on error counts one more). */
  attempts: Generated<number>;
  /** The logbook's order: started, else scheduled, else created (computed by the database). */
  sort_at: ColumnType<Date, never, never>;
}

/** The hold a worker has on a running import: its heartbeat and a stop request. */
interface ImportLeasesTable {
  import_id: string;
  worker_id: string;
  heartbeat_at: ColumnType<Date, Date | string | undefined, Date | string>;
  abort_requested: Generated<boolean>;
  created_at: CreatedAt;
}

// logs domain (append-only)
export interface LogsTable {
  id: Generated<number>;
  log_date: CreatedAt;
  level: 'error' | 'warn' | 'info' | 'success';
  message: string;
  data_sub_kind: string | null;
  upload_id: string | null;
  import_id: string | null;
}

/**
 * An editor's test run, kept a day: who started it, so that only they (and super-admins) follow its
 * log lines; of a component version or of an SDK function version, exactly one.
 */
interface TestRunsTable {
  id: string;
  user_id: string;
  component_id: string | null;
  sdk_function_id: string | null;
  started_at: CreatedAt;
}

export interface SchemasTable extends VersionColumns {
  name: string;
  json_schema: ColumnType<Record<string, unknown>, string, string>;
}

export interface ComponentsTable extends VersionColumns {
  name: string;
  description: Generated<string>;
  kind: Generated<'workflow' | 'forEach' | 'instruction' | 'function'>;
  inputs: ColumnType<unknown[], string | undefined, string>;
  outputs: ColumnType<unknown[], string | undefined, string>;
  instances: ColumnType<unknown[], string | undefined, string>;
  links: ColumnType<unknown[], string | undefined, string>;
  js_code: Generated<string>;
  test_payload: ColumnType<unknown, string | undefined, string>;
  test_context: ColumnType<unknown, string | undefined, string>;
  sdk: Generated<string[]>;
  dependencies: Generated<string[]>;
}

export interface SdkFunctionsTable extends VersionColumns {
  function_name: string;
  js_code: Generated<string>;
  test_payload: ColumnType<unknown, string | undefined, string>;
  documentation: Generated<string>;
  input: Generated<string>;
  output: Generated<string>;
  error: Generated<string>;
  modules: ColumnType<unknown[], string | undefined, string>;
}

// folders domain: the explorer trees, one per kind below its root (parent_id null)
export interface FoldersTable {
  id: string;
  kind: 'pipeline' | 'schema' | 'component' | 'sdk';
  parent_id: string | null;
  name: string;
  tags: JsonColumn<DocumentTags>;
  metadata_tags: Generated<string[]>;
  created_at: CreatedAt;
  created_by: string | null;
  updated_at: UpdatedAt;
}

/** A published endpoint (modules/endpoints): its path, its pipeline and its key's SHA-256. */
export interface EndpointsTable {
  id: string;
  pipeline_id: string;
  path: string;
  name: string;
  description: Generated<string>;
  calls_per_minute: number;
  key_hash: string;
  created_at: CreatedAt;
  created_by: string | null;
  created_by_name: string;
  updated_at: UpdatedAt;
  updated_by: string | null;
  updated_by_name: string;
}

/** A published listener (modules/listeners): its broker, what it consumes and how it batches. */
export interface ListenersTable {
  id: string;
  pipeline_id: string;
  kind: 'amqp' | 'mqtt' | 'nats';
  url: string;
  queue: string;
  jet_stream: boolean;
  batch_size: number;
  batch_wait_ms: number;
  username: string;
  /** The password at the broker, sealed with the server's encryption key (null: none). */
  password_sealed: string | null;
  created_at: CreatedAt;
  created_by: string | null;
  created_by_name: string;
  updated_at: UpdatedAt;
  updated_by: string | null;
  updated_by_name: string;
}

/** What one server instance reports of a listener it runs. */
export interface ListenerStatesTable {
  listener_id: string;
  hostname: string;
  state: string;
  last_error: string | null;
  updated_at: UpdatedAt;
}

/** Ids of the messages a listener already stored (a redelivery of one is dropped). */
interface ListenerMessagesTable {
  listener_id: string;
  message_id: string;
  seen_at: CreatedAt;
}

// activity domain
export interface ActivityTable {
  id: string;
  at: CreatedAt;
  actor_id: string | null;
  actor_name: Generated<string>;
  kind: string;
  document_kind: string | null;
  document_id: string | null;
  family_id: string | null;
  document_name: string | null;
  document_version: number | null;
  upload_id: string | null;
  pipeline_id: string | null;
  target_user_id: string | null;
  details: JsonColumn<Record<string, unknown>>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  password_tokens: PasswordTokensTable;
  tfa_challenges: TfaChallengesTable;
  auth_throttle: AuthThrottleTable;
  tags: TagsTable;
  brands: BrandsTable;
  locales: LocalesTable;
  product_lines: ProductLinesTable;
  datakinds: DatakindsTable;
  pipelines: PipelinesTable;
  user_pipelines: UserPipelinesTable;
  uploads: UploadsTable;
  upload_corrections: UploadCorrectionsTable;
  activity: ActivityTable;
  column_mappings: ColumnMappingsTable;
  jobs: JobsTable;
  imports: ImportsTable;
  import_leases: ImportLeasesTable;
  logs: LogsTable;
  test_runs: TestRunsTable;
  schemas: SchemasTable;
  components: ComponentsTable;
  sdk_functions: SdkFunctionsTable;
  folders: FoldersTable;
  endpoints: EndpointsTable;
  listeners: ListenersTable;
  listener_states: ListenerStatesTable;
  listener_messages: ListenerMessagesTable;
}
