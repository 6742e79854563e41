import type { MultipartFile } from '@fastify/multipart';
import { columnMappingsQuerySchema } from '@gdb/shared/uploads/column-mapping.schemas';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { invalid } from '../../platform/http/errors.ts';
import { counted, multipartAnswer } from './multipart-parts.ts';
import type { BudgetShare } from './upload-budget.ts';

/** A file part's bytes (at most 20 MiB), counted against the request's share of the upload budget. */
async function bytesOf(part: MultipartFile, share: BudgetShare): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of counted(part, share, { bytes: 0 })) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** What a file-head request names: the pipeline and its data source the file is chosen for. */
type HeadFields = z.infer<typeof columnMappingsQuerySchema>;

const FIELDS: readonly string[] = ['pipelineId', 'dataSubKind'];

/**
 * Reads a file-head request: the `pipelineId` and `dataSubKind` fields, then one file part. The
 * fields are checked, and handed to `read`, when the file part starts: `read` decides (access)
 * before it reads the file's bytes. A refused body is read and dropped, so the client gets the answer.
 */
export async function takeFileHead<T>(
  req: FastifyRequest,
  share: BudgetShare,
  read: (fields: HeadFields, bytes: () => Promise<Uint8Array>) => Promise<T>,
): Promise<T> {
  const values: Record<string, string> = {};
  let answer: { value: T } | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (FIELDS.includes(part.fieldname) && typeof part.value === 'string') values[part.fieldname] = part.value;
        continue;
      }
      if (answer) throw invalid('Send one file.');
      const fields = columnMappingsQuerySchema.safeParse(values);
      if (!fields.success) {
        const issues = fields.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
        const missing = FIELDS.filter((f) => values[f] === undefined);
        const first = issues[0];
        const message =
          missing.length > 0 ? `Send ${missing.join(' and ')} before the file.` : `${first?.path}: ${first?.message}`;
        throw invalid(message, issues);
      }
      answer = { value: await read(fields.data, () => bytesOf(part, share)) };
    }
  } catch (error) {
    if (!req.raw.complete) req.raw.unpipe().resume();
    throw multipartAnswer(error, 'file');
  }
  if (!answer) throw invalid('No file was sent.');
  return answer.value;
}
