import type { EndpointView } from '@gdb/shared/endpoints/endpoint.schemas';
import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Typography } from 'antd';
import { useMemo, useState } from 'react';
import {
  type ListenerView,
  publishEndpoint,
  publishedKeys,
  publishListener,
  runtimeApiUrl,
  useEndpoints,
  useListeners,
} from '../../ground/calls/published.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { useSessionUser } from '../../ground/session/session.ts';
import { HostStates } from './HostStates.tsx';
import { KeyNotice, type ShownKey } from './KeyNotice.tsx';
import { OpenApiDialog } from './OpenApiDialog.tsx';
import { PublishFrame } from './PublishFrame.tsx';
import { defaultEndpointPath } from './publish-rules.ts';
import { PUBLISH_TEXTS } from './publish-texts.ts';
import './publish.css';

export interface PublishPanelProps {
  pipeline: PipelineView;
  /** A data source whose connectorType is endpoint or listener. */
  source: DataSource;
}

/** The form's value for an endpoint: its publication's fields, or what a first publish proposes. */
function endpointValue(pipeline: PipelineView, endpoint: EndpointView | undefined): Record<string, unknown> {
  if (endpoint) {
    const { name, path, description, callsPerMinute } = endpoint;
    return { name, path, description, callsPerMinute };
  }
  return { name: pipeline.name, path: defaultEndpointPath(pipeline.name, pipeline._id), callsPerMinute: 600 };
}

/** The form's value for a listener: its settings as published (the password as its placeholder), under the pipeline's name. */
function listenerValue(pipeline: PipelineView, listener: ListenerView | undefined): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  if (listener) {
    const { kind, url, queue, jetStream, batchSize, batchWaitMs, username, password } = listener;
    for (const [k, v] of Object.entries({ kind, url, queue, jetStream, batchSize, batchWaitMs, username, password }))
      if (v !== undefined) settings[k] = v;
  }
  return { ...settings, pipelineName: pipeline.name };
}

/** The publish panel of an endpoint data source: its route, its key once published, and its OpenAPI document. */
function EndpointPanel({ pipeline, source }: PublishPanelProps) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useEndpoints();
  const base = useQuery({ queryKey: publishedKeys.runtimeUrl, queryFn: ({ signal }) => runtimeApiUrl(signal), retry: false });
  const [keys, setKeys] = useState<ShownKey[]>([]);
  const [viewing, setViewing] = useState(false);
  const endpoint = list.data?.find((e) => e.pipelineId === pipeline._id);
  const value = useMemo(() => endpointValue(pipeline, endpoint), [pipeline, endpoint]);
  const publish = useMutation({
    mutationFn: (form: Record<string, unknown>) => publishEndpoint({ ...form, id: pipeline._id }),
    onSuccess: async (answer) => {
      setKeys([{ route: answer.route, apiKey: answer.apiKey }]);
      message.success(PUBLISH_TEXTS.published);
      queryClient.removeQueries({ queryKey: publishedKeys.openApi(answer._id) });
      await queryClient.invalidateQueries({ queryKey: publishedKeys.list('endpoint') });
    },
    onError: (error) => showFailure(error, message.error),
  });
  const refresh = () => {
    if (endpoint) queryClient.removeQueries({ queryKey: publishedKeys.openApi(endpoint._id) });
    void list.refetch();
  };
  const status = endpoint ? (
    <Typography.Text>
      {PUBLISH_TEXTS.publishedAt}{' '}
      <Typography.Text code copyable={{ tooltips: [PUBLISH_TEXTS.copy, PUBLISH_TEXTS.copied] }}>
        {endpoint.route}
      </Typography.Text>
    </Typography.Text>
  ) : (
    <Typography.Text type="secondary">
      {PUBLISH_TEXTS.notPublished}
      {base.data ? ` ${PUBLISH_TEXTS.servedBelow} ${base.data.url}` : ''}
    </Typography.Text>
  );
  return (
    <PublishFrame
      kind="endpoint"
      dataSubKind={source.dataSubKind}
      value={value}
      published={Boolean(endpoint)}
      publishing={publish.isPending}
      refreshing={list.isFetching}
      onPublish={(form) => publish.mutate(form)}
      onRefresh={refresh}
      status={status}
      error={list.error}
      actions={
        <Button disabled={!endpoint} onClick={() => setViewing(true)}>
          {PUBLISH_TEXTS.viewOpenApi}
        </Button>
      }
    >
      <KeyNotice keys={keys} />
      {endpoint && <OpenApiDialog id={endpoint._id} open={viewing} onClose={() => setViewing(false)} />}
    </PublishFrame>
  );
}

/** The publish panel of a listener data source: the state of each server's consumer once published. */
function ListenerPanel({ pipeline, source }: PublishPanelProps) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const list = useListeners();
  const listener = list.data?.find((l) => l.pipelineId === pipeline._id);
  const value = useMemo(() => listenerValue(pipeline, listener), [pipeline, listener]);
  const publish = useMutation({
    mutationFn: (form: Record<string, unknown>) => publishListener({ ...form, id: pipeline._id }),
    onSuccess: async () => {
      message.success(PUBLISH_TEXTS.published);
      await queryClient.invalidateQueries({ queryKey: publishedKeys.list('listener') });
    },
    onError: (error) => showFailure(error, message.error),
  });
  return (
    <PublishFrame
      kind="listener"
      dataSubKind={source.dataSubKind}
      value={value}
      published={Boolean(listener)}
      publishing={publish.isPending}
      refreshing={list.isFetching}
      onPublish={(form) => publish.mutate(form)}
      onRefresh={() => void list.refetch()}
      error={list.error}
      status={
        listener ? (
          <HostStates hosts={listener.state} label={`Servers of ${source.dataSubKind}`} />
        ) : (
          <Typography.Text type="secondary">{PUBLISH_TEXTS.notPublished}</Typography.Text>
        )
      }
    />
  );
}

/** The roles that publish (docs/product.md §18.7); the server refuses the others. */
const PUBLISHERS = new Set(['manager', 'super-admin']);

/**
 * The wizard's publish panel for an endpoint or listener data source (docs/product.md
 * §18.7); a user who may not publish sees the source and why, and no call is made for them.
 */
export function PublishPanel(props: PublishPanelProps) {
  const user = useSessionUser();
  if (!user?.roles.some((r) => PUBLISHERS.has(r.name))) {
    return (
      <Card size="small" title={`${props.source.dataSubKind} (${props.source.connectorType})`} className="gdb-publish-panel">
        <Typography.Text type="secondary">{PUBLISH_TEXTS.publishersOnly}</Typography.Text>
      </Card>
    );
  }
  return props.source.connectorType === 'endpoint' ? <EndpointPanel {...props} /> : <ListenerPanel {...props} />;
}
