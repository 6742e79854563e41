import type { MultipartFile } from '@fastify/multipart';
import { CODES } from '@gdb/shared/api/envelope';
import { MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import type { FastifyRequest } from 'fastify';
import { errorMessage } from '../../platform/error-message.ts';
import { AppError } from '../../platform/http/errors.ts';
import { readExample } from '../uploads/uploads.service.ts';
import { inferSchema } from './infer-schema.ts';

/** Example files one request may send. */
export const MAX_EXAMPLE_FILES = 5;

/** The in-flight budget the uploads share: bytes of files being received, all requests together. */
export interface IntakeBudget {
  admit(declared?: number): { take(bytes: number): void; release(): void };
}
type Share = ReturnType<IntakeBudget['admit']>;

const PREFIX = 'Generate schema from file error: ';
const refusal = (message: string, status = 422) =>
  new AppError(status, status === 413 ? CODES.tooLarge : CODES.invalid, `${PREFIX}${message}`);
const tooLarge = () => refusal(`files must be less than ${MAX_FILE_BYTES / 1024 / 1024} MiB`, 413);

/** A file part's bytes, counted against the request's share of the budget; refused past the size limit. */
async function bytesOf(part: MultipartFile, share: Share): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) {
    if (part.file.truncated) throw tooLarge();
    share.take(chunk.byteLength);
    chunks.push(chunk);
  }
  if (part.file.truncated) throw tooLarge();
  return Buffer.concat(chunks);
}

/** An error of the request as the client is told it: a body the multipart reader refuses names why. */
function answerOf(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code.startsWith('FST_')) return refusal(`the upload cannot be read: ${errorMessage(error)}`);
  return error;
}

/** The data model of one example file, or 'Generate schema from file error: …' saying why it cannot be read. */
export function generateSchema(bytes: Uint8Array, omitStartingArray: boolean): Record<string, unknown> {
  let table: ReturnType<typeof readExample>;
  try {
    table = readExample(bytes);
  } catch (error) {
    throw refusal(errorMessage(error));
  }
  if (table.rowCount === 0) throw refusal('the file has no rows.');
  return inferSchema(table, omitStartingArray);
}

/**
 * POST /schemas/generate: the example files of a multipart request (each up to 20 MiB, counted
 * against the uploads' in-flight budget) and its `omitStartingArray` field; one data model per file.
 */
export async function generateFromRequest(req: FastifyRequest, share: Share): Promise<Record<string, unknown>[]> {
  let omitStartingArray = false;
  const files: Uint8Array[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'omitStartingArray') omitStartingArray = String(part.value) === 'true';
        continue;
      }
      files.push(await bytesOf(part, share));
    }
  } catch (error) {
    // The rest of a refused body is read and dropped, so the client, still sending, gets the answer.
    if (!req.raw.complete) req.raw.unpipe().resume();
    throw answerOf(error);
  }
  if (files.length === 0) throw refusal('no file was sent.');
  return files.map((bytes) => generateSchema(bytes, omitStartingArray));
}
