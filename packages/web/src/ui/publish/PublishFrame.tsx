import { Alert, Button, Card, Space, Spin } from 'antd';
import { type ReactNode, useRef } from 'react';
import type { PublishKind } from '../../ground/calls/published.ts';
import { useFormModel } from '../../ground/calls/schemas.ts';
import { errorText } from '../../ground/request/failure.ts';
import { DynamicForm, type DynamicFormHandle } from '../forms/DynamicForm.tsx';
import { PUBLISH_FORM_MODEL, PUBLISH_TEXTS } from './publish-texts.ts';

export interface PublishFrameProps {
  kind: PublishKind;
  /** The data source the panel publishes (its card's title). */
  dataSubKind: string;
  /** The form's starting value: the publication's, or what a first publish proposes. */
  value: Record<string, unknown>;
  published: boolean;
  publishing: boolean;
  refreshing: boolean;
  /** The form's value once every rule passes. */
  onPublish: (value: Record<string, unknown>) => void;
  onRefresh: () => void;
  /** Buttons after Refresh (View OpenAPI). */
  actions?: ReactNode;
  /** Where and how it is published, above the form. */
  status: ReactNode;
  /** A failure to read the publication. */
  error: unknown;
  children?: ReactNode;
}

/** One publish panel of the wizard's step 2: Publish or Re-Publish, Refresh, the kind's own actions, and its form. */
export function PublishFrame(props: PublishFrameProps) {
  const model = useFormModel(PUBLISH_FORM_MODEL[props.kind]);
  const form = useRef<DynamicFormHandle>(null);
  const publish = async () => {
    const handle = form.current;
    if (handle && (await handle.validate())) props.onPublish(handle.getValue());
  };
  const failure = model.error ?? props.error;
  return (
    <Card size="small" title={`${props.dataSubKind} (${props.kind})`} className="gdb-publish-panel">
      <Space wrap>
        <Button type="primary" loading={props.publishing} disabled={!model.data} onClick={() => void publish()}>
          {props.published ? PUBLISH_TEXTS.republish : PUBLISH_TEXTS.publish}
        </Button>
        <Button loading={props.refreshing} onClick={props.onRefresh}>
          {PUBLISH_TEXTS.refresh}
        </Button>
        {props.actions}
      </Space>
      {failure ? <Alert type="error" showIcon role="alert" title={errorText(failure)} className="gdb-publish-status" /> : null}
      <div className="gdb-publish-status">{props.status}</div>
      {props.children}
      {model.data ? (
        <DynamicForm ref={form} schema={model.data.jsonSchema} value={props.value} name={`publish-${props.dataSubKind}`} />
      ) : model.error ? null : (
        <Spin />
      )}
    </Card>
  );
}
