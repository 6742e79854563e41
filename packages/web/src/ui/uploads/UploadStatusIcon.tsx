import { CheckCircleTwoTone, CloseCircleTwoTone, SyncOutlined } from '@ant-design/icons';

/** Valid shows a check, invalid a cross, anything else a refresh icon (docs/product.md §9.3). */
export function UploadStatusIcon({ status }: { status: string }) {
  if (status === 'valid') return <CheckCircleTwoTone twoToneColor="#237804" aria-label="valid" />;
  if (status === 'invalid') return <CloseCircleTwoTone twoToneColor="#cf1322" aria-label="invalid" />;
  return <SyncOutlined spin aria-label={status} />;
}
