import { CODES } from '@gdb/shared/api/envelope';
import { ENDPOINT_MESSAGES, ENDPOINT_PATH, MAX_WAIT_SECONDS } from '@gdb/shared/endpoints/endpoint.schemas';
import type { ImportRecord } from '@gdb/shared/imports/import.schemas';
import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { UploadView } from '@gdb/shared/uploads/upload.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { AppError, forbidden, notFound, tooMany, unauthorized } from '../../platform/http/errors.ts';
import { callLimits } from './call-limits.ts';
import type { EndpointRow } from './endpoints.repo.ts';
import type { EndpointsService } from './endpoints.service.ts';
import { endpointSource } from './endpoints.service.ts';

const ENDED = new Set(['done', 'failed', 'aborted']);
const EXTENSION: Record<string, string> = { json: 'json', csv: 'csv', excel: 'xlsx', xml: 'xml' };

/** What a call reaches in other modules (wired at start-up). */
export interface EndpointCallDeps {
  endpoints: Pick<EndpointsService, 'byKey' | 'openApiOfKey'>;
  /**
   * Whom a call acts for: the endpoint's publisher while active and still allowed to change the
   * pipeline, with a run's rights; undefined otherwise (required: every call is checked).
   */
  runner(userId: string, pipeline: PipelineView): Promise<AuthContext | undefined>;
  pipelines: { stored(id: string): Promise<PipelineView | undefined> };
  uploads: {
    receiveCall(
      auth: AuthContext,
      pipeline: PipelineView,
      call: { filename: string; mimetype: string; bytes: Uint8Array },
    ): Promise<string>;
    outputs(auth: AuthContext, pipelineId: string): Promise<UploadView[]>;
    /** Uploads as they are now (whether a run imported them, and which). */
    current(ids: readonly string[]): Promise<UploadView[]>;
  };
  imports: {
    /** The run that takes the uploads stored so far: the waiting one, or a new one (queued while one runs). */
    runWhenFree(auth: AuthContext, pipelineId: string): Promise<{ importId: string; queued: boolean }>;
    record(auth: AuthContext, importId: string): Promise<ImportRecord>;
  };
}

export interface CallAnswer {
  /** The run that takes the call's rows (when the run asked for ends before, the one that took them). */
  importId: string;
  uploadId: string;
  /** True when that run waits for the import that runs or waits now; it starts as soon as that one ends. */
  queued: boolean;
  state: string;
  /** The files the run wrote, when it ended within the wait asked. */
  outputs?: UploadView[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How long an instance trusts what it read of an endpoint's pipeline and of its publisher's
 * rights before reading them again: a de-activated publisher, a badge taken away or a changed
 * pipeline reaches the calls within this time. The endpoint itself (its key, whether it is
 * published) is read at every call.
 */
export const CALL_RIGHTS_TTL_MS = 2000;

/** What the calls of an endpoint run with, until `until`: its pipeline, its data source, whom they act for. */
interface CallRunner {
  stamp: string;
  until: number;
  pipeline: PipelineView;
  source: DataSource;
  auth: AuthContext;
}

/**
 * A call of a published endpoint: its key (401 when wrong or missing, alike for an unknown path),
 * its calls a minute (429), the body checked against the endpoint data source's data model (422
 * with the row problems), stored as an upload of that source (switched on), and a run of the
 * pipeline that takes it made sure of: started now, or the one queued behind the running import,
 * shared by every call meanwhile (imports' `runWhenFree`). The call acts for the endpoint's last publisher, like an import run for its starter.
 */
export function endpointCalls(deps: EndpointCallDeps) {
  const limited = callLimits();
  const readable = async (path: string, apiKey: string | undefined) => {
    const endpoint = ENDPOINT_PATH.test(path) && apiKey ? await deps.endpoints.byKey(path, apiKey) : undefined;
    if (!endpoint) throw unauthorized(CODES.badToken, ENDPOINT_MESSAGES.badKey);
    return endpoint;
  };
  /**
   * Waits up to `seconds` for the run that takes the upload: the one asked for, unless an earlier
   * run (already running when the call came, before it read its inputs) imported it first.
   */
  const waitFor = async (auth: AuthContext, uploadId: string, importId: string, seconds: number) => {
    const until = Date.now() + seconds * 1000;
    for (;;) {
      const [upload] = await deps.uploads.current([uploadId]);
      const taker = upload?.importedBy ?? importId;
      const record = await deps.imports.record(auth, taker);
      if (ENDED.has(record.state) || Date.now() >= until) return record;
      await sleep(Math.min(200, Math.max(0, until - Date.now())));
    }
  };

  /** Per endpoint, what its calls ran with lately (see CALL_RIGHTS_TTL_MS); dropped when re-published or stale. */
  const runners = new Map<string, CallRunner>();
  /** The pipeline, data source and acting user of an endpoint's call, read again when stale or re-published. */
  const runnerOf = async (endpoint: EndpointRow): Promise<CallRunner> => {
    const stamp = `${endpoint.key_hash}:${endpoint.updated_by ?? ''}:${new Date(endpoint.updated_at).getTime()}`;
    const known = runners.get(endpoint.id);
    if (known && known.stamp === stamp && known.until > Date.now()) return known;
    runners.delete(endpoint.id);
    const pipeline = await deps.pipelines.stored(endpoint.pipeline_id);
    const source = endpointSource(pipeline);
    if (!pipeline || !source) throw notFound('This endpoint has no pipeline to run.');
    // The call acts for its publisher: only while they may still change the pipeline themselves.
    const publisher = endpoint.updated_by ? await deps.runner(endpoint.updated_by, pipeline) : undefined;
    if (!publisher) throw forbidden(ENDPOINT_MESSAGES.publisherGone);
    const auth: AuthContext = { ...publisher, sessionId: 'endpoint-call', userName: `endpoint ${endpoint.path}` };
    const runner = { stamp, until: Date.now() + CALL_RIGHTS_TTL_MS, pipeline, source, auth };
    runners.set(endpoint.id, runner);
    return runner;
  };

  return {
    /**
     * The endpoint at this path whose key this is (401 otherwise), checked before a call's body is
     * read; the call is then made with it.
     */
    checkKey: (path: string, apiKey: string | undefined): Promise<EndpointRow> => readable(path, apiKey),
    /** The OpenAPI document of the endpoint at this path, for the holder of its key. */
    openApi: async (path: string, apiKey: string | undefined) => deps.endpoints.openApiOfKey(await readable(path, apiKey)),
    /** A call of an endpoint whose key `checkKey` accepted. */
    async call(endpoint: EndpointRow, body: Uint8Array, mimetype: string, wait = 0): Promise<CallAnswer> {
      const retryAfter = limited(endpoint.id, endpoint.calls_per_minute);
      if (retryAfter !== undefined) {
        const error = tooMany('Too many calls of this endpoint: try again later.');
        error.retryAfterSeconds = retryAfter;
        throw error;
      }
      const { pipeline, source, auth } = await runnerOf(endpoint);
      if (body.length === 0) throw new AppError(422, CODES.invalid, 'The body is empty.');
      const filename = `${source.dataSubKind}.${EXTENSION[source.contentType] ?? 'data'}`;
      const uploadId = await deps.uploads.receiveCall(auth, pipeline, { filename, mimetype, bytes: body });
      const { importId, queued } = await deps.imports.runWhenFree(auth, pipeline._id);
      if (wait <= 0) return { importId, uploadId, queued, state: 'pending' };
      const record = await waitFor(auth, uploadId, importId, Math.min(wait, MAX_WAIT_SECONDS));
      if (!ENDED.has(record.state)) return { importId: record._id, uploadId, queued, state: record.state };
      const outputs = (await deps.uploads.outputs(auth, pipeline._id)).filter((u) => u.importId === record._id);
      return { importId: record._id, uploadId, queued, state: record.state, outputs };
    },
  };
}

export type EndpointCalls = ReturnType<typeof endpointCalls>;
