import type { MultipartFile } from '@fastify/multipart';
import { CODES } from '@gdb/shared/api/envelope';
import { FILE_SIZE_TIP } from '@gdb/shared/uploads/upload.schemas';
import { AppError, invalid } from '../../platform/http/errors.ts';
import type { BudgetShare } from './upload-budget.ts';

// What the readers of multipart requests (uploads, file heads), of calls and of real-time sources
// share: the size limit's answer, the answer to a body that cannot be read, and file parts counted
// as they come.

/** A file over the size limit (413, the spec's words). */
export const tooLarge = () => new AppError(413, CODES.tooLarge, FILE_SIZE_TIP);

/**
 * A multipart request's error as the client is told it: an over-limit file 413, a body that cannot
 * be read 422 ('The {what} cannot be read: …').
 */
export function multipartAnswer(error: unknown, what = 'upload'): unknown {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return error;
  if (error.code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (error.code.startsWith('FST_')) return invalid(`The ${what} cannot be read: ${error.message}`);
  return error;
}

/**
 * A file part's bytes as they arrive, counted against the request's share of the upload budget;
 * fails as soon as the part passes the size limit (the parser stops giving bytes there).
 */
export async function* counted(part: MultipartFile, share: BudgetShare, size: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of part.file) {
    if (!(chunk instanceof Uint8Array)) continue;
    if (part.file.truncated) throw tooLarge();
    share.take(chunk.byteLength);
    size.bytes += chunk.byteLength;
    yield chunk;
  }
  if (part.file.truncated) throw tooLarge();
}
