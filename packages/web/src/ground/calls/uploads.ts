import { lastListSchema, SENT_FROM_FIELD, type SentFrom } from '@gdb/shared/uploads/upload.schemas';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../request/api.ts';
import { CALL_FAILURES } from '../request/call-failures.ts';

export const uploadKeys = {
  last: (pipelineId: string) => ['uploads', 'last', pipelineId] as const,
};

/** GET /uploads/last-all: per data source of a pipeline, its last uploads. */
export const lastUploads = (pipelineId: string, signal?: AbortSignal) =>
  api.get('/uploads/last-all', z.array(lastListSchema), { query: { pipelineId }, signal, nothing: CALL_FAILURES.lastUploads });

/** The last uploads of the pipeline, loaded while one is chosen and `enabled`. */
export function useLastUploads(pipelineId: string | null, enabled = true) {
  return useQuery({
    queryKey: uploadKeys.last(pipelineId ?? ''),
    queryFn: ({ signal }) => lastUploads(pipelineId ?? '', signal),
    enabled: !!pipelineId && enabled,
  });
}

/** Sends the chosen files, one part per data source named by its dataSubKind, saying which screen sent them; answers the upload ids. */
export function uploadFiles(pipelineId: string, files: ReadonlyMap<string, File>, sentFrom: SentFrom): Promise<string[]> {
  const form = new FormData();
  form.append('pipelineId', pipelineId);
  form.append(SENT_FROM_FIELD, sentFrom);
  for (const [dataSubKind, file] of files) form.append(dataSubKind, file, file.name);
  return api.post('/uploads', form, z.array(z.string()), { nothing: CALL_FAILURES.uploadFiles });
}

/** Downloads uploads: one file as itself, several as export.zip. */
export async function exportUploads(uploadIds: string[]): Promise<void> {
  const file = await api.download('/uploads/export', { uploadIds });
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? 'export.zip';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
