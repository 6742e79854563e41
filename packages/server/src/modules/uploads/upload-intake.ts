import type { MultipartFile } from '@fastify/multipart';
import { CODES } from '@gdb/shared/api/envelope';
import { SENT_FROM_FIELD, type SentFrom } from '@gdb/shared/uploads/upload.schemas';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FileStore } from '../../platform/files/file-store.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';
import type { BudgetShare } from './upload-budget.ts';
import type { StoredFile } from './uploads.service.ts';

const tooLarge = () => new AppError(413, CODES.tooLarge, 'Files must be less than 20 MiB');

/** A multipart request's error as the client is told it: an over-limit file 413, a body that cannot be read 422. */
function answerOf(error: unknown): unknown {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return error;
  if (error.code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (error.code.startsWith('FST_')) return invalid(`The upload cannot be read: ${error.message}`);
  return error;
}

/**
 * A file part's bytes as they arrive, counted against the request's share of the upload budget;
 * fails as soon as the part passes the size limit (the parser stops giving bytes there).
 */
async function* counted(part: MultipartFile, share: BudgetShare, size: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of part.file) {
    if (!(chunk instanceof Uint8Array)) continue;
    if (part.file.truncated) throw tooLarge();
    share.take(chunk.byteLength);
    size.bytes += chunk.byteLength;
    yield chunk;
  }
  if (part.file.truncated) throw tooLarge();
}

/**
 * Reads a multipart upload, the `pipelineId` field (and `sentFrom`: 'testing' from the testing view) and one file part per data source (each up to
 * 20 MiB), storing each file as it arrives (the bytes that come while a write runs wait in memory
 * for the next one, so the reading never waits on the store chunk by chunk), then hands the
 * stored files to `receive`. When the request fails, `receive` included, or the client goes away,
 * the files it stored are deleted before its error is thrown.
 */
export async function takeUpload<T>(
  req: FastifyRequest,
  files: FileStore,
  share: BudgetShare,
  receive: (pipelineId: string, stored: StoredFile[], sentFrom: SentFrom) => Promise<T>,
): Promise<T> {
  let pipelineId = '';
  let sentFrom: SentFrom = 'wizard';
  const stored: StoredFile[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'pipelineId' && typeof part.value === 'string') pipelineId = part.value;
        if (part.fieldname === SENT_FROM_FIELD && part.value === 'testing') sentFrom = 'testing';
        continue;
      }
      const size = { bytes: 0 };
      const key = await files.putStream(counted(part, share, size));
      stored.push({ dataSubKind: part.fieldname, filename: part.filename, mimetype: part.mimetype, key, size: size.bytes });
    }
    if (!z.string().uuid().safeParse(pipelineId).success)
      throw invalid('pipelineId: must be an id', [{ path: 'pipelineId', message: 'must be an id' }]);
    return await receive(pipelineId, stored, sentFrom);
  } catch (error) {
    // The rest of a refused body is read and dropped, so the client, still sending, gets the answer.
    if (!req.raw.complete) req.raw.unpipe().resume();
    await Promise.all(
      stored.map(({ key }) =>
        files.delete(key).catch((err) => req.log.warn({ err, key }, 'stored file of a failed upload kept')),
      ),
    );
    throw answerOf(error);
  }
}
