import { SENT_FROM_FIELD, type SentFrom } from '@gdb/shared/uploads/upload.schemas';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FileStore } from '../../platform/files/file-store.ts';
import { invalid } from '../../platform/http/errors.ts';
import { counted, multipartAnswer } from './multipart-parts.ts';
import type { BudgetShare } from './upload-budget.ts';
import type { StoredFile } from './uploads.service.ts';

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
    throw multipartAnswer(error);
  }
}
