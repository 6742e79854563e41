import { CheckCircleTwoTone, CloseCircleTwoTone, SyncOutlined } from '@ant-design/icons';

/** Valid shows a check, invalid a cross, anything else a refresh icon (spec 000 §4). */
export function UploadStatusIcon({ status }: { status: string }) {
  if (status === 'valid') return <CheckCircleTwoTone twoToneColor="#52c41a" aria-label="valid" />;
  if (status === 'invalid') return <CloseCircleTwoTone twoToneColor="#ff4d4f" aria-label="invalid" />;
  return <SyncOutlined spin aria-label={status} />;
}
