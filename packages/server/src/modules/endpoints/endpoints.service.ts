import crypto from 'node:crypto';
import { ENDPOINT_MESSAGES, type EndpointView, type PublishEndpointBody } from '@gdb/shared/endpoints/endpoint.schemas';
import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { hashToken, randomToken } from '../../platform/auth/secrets.ts';
import type { AppContext } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { badRequest, conflict, notFound } from '../../platform/http/errors.ts';
import { isUuid, newId } from '../../platform/ids.ts';
import type { DocumentAccess } from '../access/access.service.ts';
import { endpointOpenApi } from './endpoint-openapi.ts';
import { type EndpointRow, endpointsRepo } from './endpoints.repo.ts';

/** Where the runtime routes are served, below the server's public URL. */
export const RUNTIME_PREFIX = '/gdb-runtime/v1';

/** What the endpoints read of the pipelines: a pipeline as stored, whoever asks (the access check is this module's). */
export interface EndpointPipelines {
  stored(id: string): Promise<PipelineView | undefined>;
}

/** The pipeline's endpoint data source, if it has one. */
export function endpointSource(pipeline: PipelineView | undefined): DataSource | undefined {
  return pipeline?.dataSources.find((s) => s.connectorType === 'endpoint');
}

/** The path a first publish takes when none is given: the pipeline's name, as a path. */
const defaultPath = (pipeline: PipelineView) =>
  pipeline.name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || pipeline._id;

/** A component's name and version, as the Endpoints screen shows it. */
export interface ComponentName {
  name: string;
  version: number;
}

function toView(row: EndpointRow, pipeline: PipelineView | undefined, baseUrl: string, component?: ComponentName): EndpointView {
  const source = endpointSource(pipeline);
  return {
    _id: row.id,
    path: row.path,
    name: row.name,
    description: row.description,
    callsPerMinute: row.calls_per_minute,
    pipelineId: row.pipeline_id,
    pipelineName: pipeline?.name ?? null,
    pipelineVersion: pipeline?.version ?? null,
    pipelineVLocked: pipeline?.vLocked ?? null,
    componentId: pipeline?.component ?? null,
    componentName: component?.name ?? null,
    componentVersion: component?.version ?? null,
    dataSubKind: source?.dataSubKind ?? null,
    contentType: source?.contentType ?? null,
    route: `${baseUrl}/${row.path}`,
    isValid: source !== undefined,
    createDate: row.created_at.toISOString(),
    createUsername: row.created_by_name,
    updateDate: row.updated_at.toISOString(),
    updateUsername: row.updated_by_name,
  };
}

/**
 * Published endpoints (docs/product.md §18.7): a pipeline whose data source has connectorType
 * endpoint is published at a path below the runtime base URL with a key, shown once and stored as
 * its SHA-256; a re-publish replaces the key. Reading and un-publishing need read and write access
 * to the pipeline through the caller's badges (`access`, required); an endpoint whose pipeline is
 * gone is open to the roles the route admits, so that it can be un-published.
 */
export function endpointsService(
  ctx: AppContext,
  deps: {
    pipelines: EndpointPipelines;
    access: DocumentAccess;
    /** The names and versions of these component versions that exist, by id. */
    componentNames: (ids: readonly string[]) => Promise<Map<string, ComponentName>>;
    /** A data model's JSON schema by its id, or undefined when there is none. */
    dataModel: (id: string) => Promise<Record<string, unknown> | undefined>;
  },
) {
  const repo = endpointsRepo(ctx.db.kysely);
  const baseUrl = `${ctx.config.publicUrl}${RUNTIME_PREFIX}`;
  const { access, pipelines } = deps;
  const pipelineOf = (row: EndpointRow) => pipelines.stored(row.pipeline_id);
  const check = async (auth: AuthContext, action: 'read' | 'write', pipeline: PipelineView | undefined) => {
    if (pipeline) await (await access(auth)).assert(action, 'pipeline', { folder: pipeline.folder, tags: pipeline.tags });
  };
  const endpointOf = async (id: string) => {
    const row = isUuid(id) ? ((await repo.byId(id)) ?? (await repo.byPipeline(id))) : undefined;
    if (!row) throw notFound(ENDPOINT_MESSAGES.notFound);
    return row;
  };

  /** The views of these endpoints, with the name and version of the component each pipeline runs. */
  const views = async (found: readonly { row: EndpointRow; pipeline: PipelineView | undefined }[]) => {
    const names = await deps.componentNames(found.flatMap((f) => f.pipeline?.component ?? []));
    return found.map((f) => toView(f.row, f.pipeline, baseUrl, names.get(f.pipeline?.component ?? '')));
  };
  const openApiOf = async (row: EndpointRow, pipeline: PipelineView | undefined) => {
    const source = endpointSource(pipeline);
    if (!source) throw notFound('This endpoint has no pipeline to run.');
    const dataModel = source.dataModel ? await deps.dataModel(source.dataModel) : undefined;
    return endpointOpenApi({ name: row.name, description: row.description, path: row.path, baseUrl }, source, dataModel);
  };

  return {
    runtimeUrl: () => baseUrl,
    /** The OpenAPI 3.1 document of an endpoint the caller may read (the wizard's 'View OpenAPI'). */
    async openApi(auth: AuthContext, id: string) {
      const row = await endpointOf(id);
      const pipeline = await pipelineOf(row);
      await check(auth, 'read', pipeline);
      return openApiOf(row, pipeline);
    },
    /** The OpenAPI 3.1 document of the endpoint a key opens (its callers'). */
    openApiOfKey: async (row: EndpointRow) => openApiOf(row, await pipelineOf(row)),
    /** Every endpoint the caller's badges let them read (those whose pipeline is gone too). */
    async list(auth: AuthContext): Promise<EndpointView[]> {
      const rows = await Promise.all((await repo.all()).map(async (row) => ({ row, pipeline: await pipelineOf(row) })));
      const open = await (await access(auth)).filter('read', 'pipeline', rows, (r) => ({
        folder: r.pipeline?.folder ?? null,
        tags: r.pipeline?.tags ?? null,
      }));
      return views(open);
    },
    /** One endpoint, by its id or its pipeline's. */
    async byId(auth: AuthContext, id: string): Promise<EndpointView> {
      const row = await endpointOf(id);
      const pipeline = await pipelineOf(row);
      await check(auth, 'read', pipeline);
      return (await views([{ row, pipeline }]))[0] as EndpointView;
    },
    /** Publishes (or re-publishes) a pipeline; answers the endpoint and its new key, shown this once. */
    async publish(auth: AuthContext, body: PublishEndpointBody): Promise<EndpointView & { apiKey: string }> {
      const pipeline = isUuid(body.id) ? await pipelines.stored(body.id) : undefined;
      if (!pipeline) throw notFound('Pipeline not found.');
      await check(auth, 'write', pipeline);
      if (!endpointSource(pipeline)) throw badRequest(ENDPOINT_MESSAGES.notEndpoint);
      const apiKey = randomToken(32);
      const before = await repo.byPipeline(pipeline._id);
      const fields = {
        path: body.path ?? before?.path ?? defaultPath(pipeline),
        name: body.name ?? before?.name ?? pipeline.name,
        description: body.description ?? before?.description ?? '',
        calls_per_minute: body.callsPerMinute ?? before?.calls_per_minute ?? 600,
        key_hash: hashToken(apiKey),
        updated_by: auth.userId,
        updated_by_name: auth.userName,
      };
      const id = before?.id ?? newId();
      try {
        if (before) await repo.update(id, fields);
        else
          await repo.insert({
            id,
            pipeline_id: pipeline._id,
            created_by: auth.userId,
            created_by_name: auth.userName,
            ...fields,
          });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(ENDPOINT_MESSAGES.pathTaken);
        throw error;
      }
      const row = await repo.byId(id);
      if (!row) throw notFound(ENDPOINT_MESSAGES.notFound);
      return { ...((await views([{ row, pipeline }]))[0] as EndpointView), apiKey };
    },
    /** Un-publishes an endpoint (by its id or its pipeline's): its key stops working at once. */
    async remove(auth: AuthContext, id: string): Promise<{ _id: string }> {
      const row = await endpointOf(id);
      await check(auth, 'write', await pipelineOf(row));
      await repo.remove(row.id);
      return { _id: row.id };
    },
    /** The endpoint at this path whose key this is, or undefined (the runtime answers 401 alike for both). */
    async byKey(path: string, apiKey: string): Promise<EndpointRow | undefined> {
      const row = await repo.byPath(path);
      if (!row || !apiKey) return undefined;
      return timingSafeEqual(row.key_hash, hashToken(apiKey)) ? row : undefined;
    },
  };
}

/** Compares two hashes in a time that does not depend on where they differ. */
function timingSafeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export type EndpointsService = ReturnType<typeof endpointsService>;
