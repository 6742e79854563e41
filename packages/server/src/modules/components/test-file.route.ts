import multipart, { type MultipartFile } from '@fastify/multipart';
import { CODES, envelope } from '@gdb/shared/api/envelope';
import { type TestFileRows, testFileRowsSchema } from '@gdb/shared/components/hierarchy.schemas';
import { FILE_SIZE_TIP, MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';

/** The in-flight budget the uploads share: bytes of files being received, all requests together. */
export interface IntakeBudget {
  admit(declared?: number): { take(bytes: number): void; release(): void };
}
type Share = ReturnType<IntakeBudget['admit']>;

/** Reads a file's rows with no data model, as an upload is read (the uploads service). */
export type ReadFileRows = (fileName: string, bytes: Uint8Array) => Promise<TestFileRows>;

const tooLarge = () => new AppError(413, CODES.tooLarge, FILE_SIZE_TIP);

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

/** The one file of the request, its name and bytes (at most 20 MiB, counted against the budget). */
async function fileOf(req: FastifyRequest, share: Share): Promise<{ name: string; bytes: Uint8Array }> {
  let file: { name: string; bytes: Uint8Array } | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') continue;
      file = { name: part.filename.slice(0, 255), bytes: await bytesOf(part, share) };
    }
  } catch (error) {
    // The rest of a refused body is read and dropped, so the client, still sending, gets the answer.
    if (!req.raw.complete) req.raw.unpipe().resume();
    if (error instanceof AppError) throw error;
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code.startsWith('FST_')) throw invalid(`The file cannot be read: ${(error as Error).message}`);
    throw error;
  }
  if (!file) throw invalid('No file was sent.');
  return file;
}

/**
 * POST /components/test-file: the rows of a test file for the component editor's 'Load ...' dialog
 * (CSV, XLSX or XLS — its first visible sheet — or JSON), received like an upload (multipart, 20 MiB,
 * the uploads' in-flight budget) and read like one (the upload readers, in a parse worker).
 */
export function testFileRoute(read: ReadFileRows, budget: IntakeBudget) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 256 } });
    fastify.withTypeProvider<ZodTypeProvider>().post(
      '/components/test-file',
      {
        bodyLimit: MAX_FILE_BYTES + 64 * 1024,
        schema: { tags: ['components'], consumes: ['multipart/form-data'], response: { 200: envelope(testFileRowsSchema) } },
      },
      async (req) => {
        requireAuth(req);
        if (!req.isMultipart()) throw invalid('Send the test file as multipart/form-data.');
        const length = Number(req.headers['content-length']);
        const share = budget.admit(Number.isFinite(length) && length > 0 ? length : 0);
        try {
          const { name, bytes } = await fileOf(req, share);
          return ok(await read(name, bytes));
        } finally {
          share.release();
        }
      },
    );
  };
}
