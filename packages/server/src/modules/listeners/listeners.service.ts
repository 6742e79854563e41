import {
  LISTENER_DEFAULTS,
  LISTENER_MESSAGES,
  type ListenerView,
  PASSWORD_PLACEHOLDER,
  type PublishListenerBody,
} from '@gdb/shared/listeners/listener.schemas';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { decrypt, encrypt } from '../../platform/auth/secrets.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, invalid, notFound } from '../../platform/http/errors.ts';
import { isUuid, newId } from '../../platform/ids.ts';
import type { DocumentAccess } from '../access/access.service.ts';
import { checkBrokerUrl } from './broker-address.ts';
import { listenerSource } from './listener-source.ts';
import { type ListenerChange, type ListenerRow, type ListenerStateRow, listenersRepo } from './listeners.repo.ts';

/** What the listeners read of the pipelines: a pipeline as stored, whoever asks (the access check is this module's). */
export interface ListenerPipelines {
  stored(id: string): Promise<PipelineView | undefined>;
}

function toView(row: ListenerRow, pipeline: PipelineView | undefined, states: readonly ListenerStateRow[]): ListenerView {
  const source = listenerSource(pipeline);
  return {
    _id: row.id,
    pipelineId: row.pipeline_id,
    pipelineName: pipeline?.name ?? null,
    pipelineVersion: pipeline?.version ?? null,
    pipelineVLocked: pipeline?.vLocked ?? null,
    state: states.map((s) => ({
      hostname: s.hostname,
      state: s.state as ListenerView['state'][number]['state'],
      last_error: s.last_error,
    })),
    isValid: source !== undefined,
    dataSubKind: source?.dataSubKind ?? null,
    kind: row.kind,
    url: row.url,
    queue: row.queue,
    jetStream: row.jet_stream,
    batchSize: row.batch_size,
    batchWaitMs: row.batch_wait_ms,
    username: row.username,
    password: row.password_sealed ? PASSWORD_PLACEHOLDER : '',
    createDate: row.created_at.toISOString(),
    createUsername: row.created_by_name,
    updateDate: row.updated_at.toISOString(),
    updateUsername: row.updated_by_name,
  };
}

/** The sealed password a publish keeps: the stored one when left out or sent as the placeholder, none when empty. */
function sealedPassword(ctx: AppContext, sent: string | undefined, before: ListenerRow | undefined): string | null {
  if (sent === undefined || sent === PASSWORD_PLACEHOLDER) return before?.password_sealed ?? null;
  return sent === '' ? null : encrypt(ctx.secrets.encryptionKey, sent);
}

/** The listener's fields after a publish: those sent, else those of the last publish, else the defaults. */
async function publishedFields(ctx: AppContext, auth: AuthContext, body: PublishListenerBody, before: ListenerRow | undefined) {
  const kind = body.kind ?? before?.kind;
  const url = body.url ?? before?.url;
  const queue = body.queue ?? before?.queue;
  if (!kind || !url || !queue) throw invalid(LISTENER_MESSAGES.incomplete);
  const jetStream = body.jetStream ?? before?.jet_stream ?? LISTENER_DEFAULTS.jetStream;
  if (jetStream && kind !== 'nats') throw invalid(LISTENER_MESSAGES.jetStreamNats, [{ path: 'jetStream', message: 'nats only' }]);
  await checkBrokerUrl(kind, url, ctx.config.listeners.privateRanges);
  const fields: ListenerChange = {
    kind,
    url,
    queue,
    jet_stream: jetStream,
    batch_size: body.batchSize ?? before?.batch_size ?? LISTENER_DEFAULTS.batchSize,
    batch_wait_ms: body.batchWaitMs ?? before?.batch_wait_ms ?? LISTENER_DEFAULTS.batchWaitMs,
    username: body.username ?? before?.username ?? LISTENER_DEFAULTS.username,
    password_sealed: sealedPassword(ctx, body.password, before),
    updated_by: auth.userId,
    updated_by_name: auth.userName,
  };
  return fields;
}

/**
 * Published listeners (docs/product.md §18.7): a pipeline whose data source has connectorType
 * listener consumes a queue, topic or subject of a broker; every server instance runs it
 * (listener-runtime.ts) and reports its state. The password at the broker is stored encrypted
 * and never answered. Reading and un-publishing need read and write access to the pipeline through
 * the caller's badges (`access`, required); a listener whose pipeline is gone is open to the roles
 * the route admits, so that it can be un-published.
 */
export function listenersService(
  ctx: AppContext,
  deps: {
    pipelines: ListenerPipelines;
    access: DocumentAccess;
    /** Told when listeners change here, so that this instance starts or stops them at once. */
    changed: () => void;
  },
) {
  const repo = listenersRepo(ctx.db.kysely);
  const { access, pipelines } = deps;
  const pipelineOf = (row: ListenerRow) => pipelines.stored(row.pipeline_id);
  const check = async (auth: AuthContext, action: 'read' | 'write', pipeline: PipelineView | undefined) => {
    if (pipeline) await (await access(auth)).assert(action, 'pipeline', { folder: pipeline.folder, tags: pipeline.tags });
  };
  const listenerOf = async (id: string) => {
    const row = isUuid(id) ? ((await repo.byId(id)) ?? (await repo.byPipeline(id))) : undefined;
    if (!row) throw notFound(LISTENER_MESSAGES.notFound);
    return row;
  };
  const views = async (found: readonly { row: ListenerRow; pipeline: PipelineView | undefined }[]) => {
    const states = await repo.states(found.map((f) => f.row.id));
    return found.map((f) =>
      toView(
        f.row,
        f.pipeline,
        states.filter((s) => s.listener_id === f.row.id),
      ),
    );
  };

  return {
    /** Every listener the caller's badges let them read (those whose pipeline is gone too). */
    async list(auth: AuthContext): Promise<ListenerView[]> {
      const rows = await Promise.all((await repo.all()).map(async (row) => ({ row, pipeline: await pipelineOf(row) })));
      const open = await (await access(auth)).filter('read', 'pipeline', rows, (r) => ({
        folder: r.pipeline?.folder ?? null,
        tags: r.pipeline?.tags ?? null,
      }));
      return views(open);
    },
    /** One listener, by its id or its pipeline's. */
    async byId(auth: AuthContext, id: string): Promise<ListenerView> {
      const row = await listenerOf(id);
      const pipeline = await pipelineOf(row);
      await check(auth, 'read', pipeline);
      return (await views([{ row, pipeline }]))[0] as ListenerView;
    },
    /** Publishes (or re-publishes, which restarts it on every instance) a pipeline's listener. */
    async publish(auth: AuthContext, body: PublishListenerBody): Promise<ListenerView> {
      const pipeline = isUuid(body.id) ? await pipelines.stored(body.id) : undefined;
      if (!pipeline) throw notFound('Pipeline not found.');
      await check(auth, 'write', pipeline);
      if (!listenerSource(pipeline)) throw badRequest(LISTENER_MESSAGES.notListener);
      const before = await repo.byPipeline(pipeline._id);
      const fields = await publishedFields(ctx, auth, body, before);
      const id = before?.id ?? newId();
      if (before) await repo.update(id, fields);
      else
        await repo.insert({ id, pipeline_id: pipeline._id, created_by: auth.userId, created_by_name: auth.userName, ...fields });
      deps.changed();
      const row = await repo.byId(id);
      if (!row) throw notFound(LISTENER_MESSAGES.notFound);
      return (await views([{ row, pipeline }]))[0] as ListenerView;
    },
    /** Un-publishes a listener (by its id or its pipeline's): every instance stops it. */
    async remove(auth: AuthContext, id: string): Promise<{ _id: string }> {
      const row = await listenerOf(id);
      await check(auth, 'write', await pipelineOf(row));
      await repo.remove(row.id);
      deps.changed();
      return { _id: row.id };
    },
    /** The password at the broker in clear, for the consumer that connects (never answered). */
    passwordOf: (row: ListenerRow): string | undefined =>
      row.password_sealed ? decrypt(ctx.secrets.encryptionKey, row.password_sealed) : undefined,
  };
}

export type ListenersService = ReturnType<typeof listenersService>;
