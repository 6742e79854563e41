import { useQuery } from '@tanstack/react-query';
import { Alert, Input, Spin, Typography } from 'antd';
import { useId } from 'react';
import { endpointOpenApi, publishedKeys } from '../../ground/calls/published.ts';
import { errorText } from '../../ground/request/failure.ts';
import { GenericDialog } from '../dialog/GenericDialog.tsx';
import { PUBLISH_TEXTS } from './publish-texts.ts';

export interface OpenApiDialogProps {
  /** The endpoint (or the pipeline it publishes) whose document is shown. */
  id: string;
  open: boolean;
  onClose: () => void;
}

/** 'View OpenAPI': the endpoint's OpenAPI 3.1 document, readable (2-space JSON) and copyable. */
export function OpenApiDialog({ id, open, onClose }: OpenApiDialogProps) {
  const label = useId();
  const doc = useQuery({
    queryKey: publishedKeys.openApi(id),
    queryFn: ({ signal }) => endpointOpenApi(id, signal),
    enabled: open,
    retry: false,
  });
  const text = doc.data ? JSON.stringify(doc.data, null, 2) : '';
  return (
    <GenericDialog open={open} title={PUBLISH_TEXTS.openApiTitle} width="60%" cancelText={PUBLISH_TEXTS.close} onCancel={onClose}>
      {doc.error ? (
        <Alert type="error" showIcon role="alert" title={errorText(doc.error)} />
      ) : !doc.data ? (
        <Spin />
      ) : (
        <>
          <Typography.Text id={label} strong copyable={{ text, tooltips: [PUBLISH_TEXTS.copy, PUBLISH_TEXTS.copied] }}>
            {PUBLISH_TEXTS.openApiLabel}
          </Typography.Text>
          <Input.TextArea
            aria-labelledby={label}
            readOnly
            value={text}
            spellCheck={false}
            className="gdb-openapi-text"
            rows={24}
          />
        </>
      )}
    </GenericDialog>
  );
}
