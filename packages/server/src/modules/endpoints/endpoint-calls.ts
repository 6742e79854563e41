import { CODES } from '@gdb/shared/api/envelope';
import { ENDPOINT_MESSAGES, ENDPOINT_PATH, MAX_WAIT_SECONDS } from '@gdb/shared/endpoints/endpoint.schemas';
import type { CreateImportBody, ImportRecord, JobCreated } from '@gdb/shared/imports/import.schemas';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { UploadView } from '@gdb/shared/uploads/upload.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { AppError, conflict, forbidden, notFound, tooMany, unauthorized } from '../../platform/http/errors.ts';
import { callLimits } from './call-limits.ts';
import type { EndpointsService } from './endpoints.service.ts';
import { endpointSource } from './endpoints.service.ts';

const NIL_USER = '00000000-0000-0000-0000-000000000000';
const ENDED = new Set(['done', 'failed', 'aborted']);
const EXTENSION: Record<string, string> = { json: 'json', csv: 'csv', excel: 'xlsx', xml: 'xml' };

/** What a call reaches in other modules (wired at start-up). */
export interface EndpointCallDeps {
  endpoints: Pick<EndpointsService, 'byKey' | 'openApiOfKey' | 'mayRun'>;
  /** The endpoint's publisher as they are now (roles, active), or undefined when gone or de-activated. */
  publisher(userId: string): Promise<AuthContext | undefined>;
  pipelines: { stored(id: string): Promise<PipelineView | undefined> };
  uploads: {
    receiveCall(
      auth: AuthContext,
      pipeline: PipelineView,
      call: { filename: string; mimetype: string; bytes: Uint8Array },
    ): Promise<string>;
    outputs(auth: AuthContext, pipelineId: string): Promise<UploadView[]>;
    setEnabled(auth: AuthContext, id: string, enabled: boolean): Promise<UploadView>;
  };
  imports: {
    create(auth: AuthContext, body: CreateImportBody): Promise<JobCreated>;
    record(auth: AuthContext, importId: string): Promise<ImportRecord>;
  };
}

export interface CallAnswer {
  importId: string;
  uploadId: string;
  state: string;
  /** The files the run wrote, when it ended within the wait asked. */
  outputs?: UploadView[];
}

/** Seconds a caller is asked to wait before calling again while the pipeline is busy. */
const BUSY_RETRY_SECONDS = 5;

/**
 * Runs the pipeline now. While an import of it runs or waits, the call's upload is switched off
 * (no later run takes it) and the call answers 409 with Retry-After: the caller sends it again.
 */
async function startImport(deps: EndpointCallDeps, auth: AuthContext, pipelineId: string, uploadId: string) {
  try {
    const body = { pipelineId, kind: 'immediate', restartOnError: false, listPipelines: [] };
    return (await deps.imports.create(auth, body)).importId;
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 409) throw error;
    await deps.uploads.setEnabled(auth, uploadId, false);
    const busy = conflict(ENDPOINT_MESSAGES.busy);
    busy.retryAfterSeconds = BUSY_RETRY_SECONDS;
    throw busy;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A call of a published endpoint: its key (401 when wrong or missing, alike for an unknown path),
 * its calls a minute (429), the body checked against the endpoint data source's data model (422
 * with the row problems), stored as an upload of that source, the pipeline run as an immediate
 * import. The call acts for the endpoint's last publisher, like an import run for its starter.
 */
export function endpointCalls(deps: EndpointCallDeps) {
  const limited = callLimits();
  const readable = async (path: string, apiKey: string | undefined) => {
    const endpoint = ENDPOINT_PATH.test(path) && apiKey ? await deps.endpoints.byKey(path, apiKey) : undefined;
    if (!endpoint) throw unauthorized(CODES.badToken, ENDPOINT_MESSAGES.badKey);
    return endpoint;
  };
  const waitFor = async (auth: AuthContext, importId: string, seconds: number) => {
    const until = Date.now() + seconds * 1000;
    let record = await deps.imports.record(auth, importId);
    while (!ENDED.has(record.state) && Date.now() < until) {
      await sleep(Math.min(200, Math.max(0, until - Date.now())));
      record = await deps.imports.record(auth, importId);
    }
    return record;
  };

  return {
    /** Refuses a call without the key of the endpoint at this path (401), before its body is read. */
    checkKey: async (path: string, apiKey: string | undefined): Promise<void> => {
      await readable(path, apiKey);
    },
    /** The OpenAPI document of the endpoint at this path, for the holder of its key. */
    openApi: async (path: string, apiKey: string | undefined) => deps.endpoints.openApiOfKey(await readable(path, apiKey)),
    async call(path: string, apiKey: string | undefined, body: Uint8Array, mimetype: string, wait = 0): Promise<CallAnswer> {
      const endpoint = await readable(path, apiKey);
      const retryAfter = limited(endpoint.id, endpoint.calls_per_minute);
      if (retryAfter !== undefined) {
        const error = tooMany('Too many calls of this endpoint: try again later.');
        error.retryAfterSeconds = retryAfter;
        throw error;
      }
      const pipeline = await deps.pipelines.stored(endpoint.pipeline_id);
      const source = endpointSource(pipeline);
      if (!pipeline || !source) throw notFound('This endpoint has no pipeline to run.');
      // The call acts for its publisher: only while they may still change the pipeline themselves.
      const publisher = endpoint.updated_by ? await deps.publisher(endpoint.updated_by) : undefined;
      if (!publisher || !(await deps.endpoints.mayRun(publisher, pipeline))) throw forbidden(ENDPOINT_MESSAGES.publisherGone);
      if (body.length === 0) throw new AppError(422, CODES.invalid, 'The body is empty.');
      const auth: AuthContext = {
        userId: endpoint.updated_by ?? NIL_USER,
        sessionId: 'endpoint-call',
        userName: `endpoint ${endpoint.path}`,
        roles: ['super-admin'],
      };
      const filename = `${source.dataSubKind}.${EXTENSION[source.contentType] ?? 'data'}`;
      const uploadId = await deps.uploads.receiveCall(auth, pipeline, { filename, mimetype, bytes: body });
      const importId = await startImport(deps, auth, pipeline._id, uploadId);
      if (wait <= 0) return { importId, uploadId, state: 'pending' };
      const record = await waitFor(auth, importId, Math.min(wait, MAX_WAIT_SECONDS));
      if (!ENDED.has(record.state)) return { importId, uploadId, state: record.state };
      const outputs = (await deps.uploads.outputs(auth, pipeline._id)).filter((u) => u.importId === importId);
      return { importId, uploadId, state: record.state, outputs };
    },
  };
}

export type EndpointCalls = ReturnType<typeof endpointCalls>;
