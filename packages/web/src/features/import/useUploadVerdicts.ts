import { App } from 'antd';
import { useEffect, useRef } from 'react';

/** The key of the 'Uploaded successfully!' toast, which an upload found invalid closes. */
export const STORED_TOAST_KEY = 'gdb-upload-stored';

/** The message that follows 'Uploaded successfully!' once the server has checked the file. */
function verdictText(u: { dataSubKind: string; originalFilename: string | null; status: string }): string | null {
  const name = u.originalFilename ?? u.dataSubKind;
  if (u.status === 'valid') return `${name} is valid.`;
  if (u.status === 'invalid') return `${name} is invalid: see its logs in the next step.`;
  return null;
}

/** Says once per upload of this session whether its check passed, as its status arrives live. */
export function useUploadVerdicts(
  uploads: readonly { _id: string; dataSubKind: string; originalFilename: string | null; status: string }[],
) {
  const { message } = App.useApp();
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const u of uploads) {
      const text = verdictText(u);
      if (!text || told.current.has(u._id)) continue;
      told.current.add(u._id);
      if (u.status === 'valid') {
        message.success(text);
        continue;
      }
      // The file was stored, but it is not a success: the toast that said so goes.
      message.destroy(STORED_TOAST_KEY);
      message.error(text);
    }
  }, [uploads, message]);
}
