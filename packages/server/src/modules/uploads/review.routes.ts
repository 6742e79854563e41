import { envelope } from '@gdb/shared/api/envelope';
import {
  correctionsAnswerSchema,
  correctionsBodySchema,
  problemsQuerySchema,
  reviewParamsSchema,
  reviewQuerySchema,
  reviewSchema,
  submitAnswerSchema,
} from '@gdb/shared/uploads/review.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { attachmentHeader } from '../../platform/http/content-disposition.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { ReviewService } from './review.service.ts';

/** The review of an upload's rows: read, correct, submit the corrected file, download the problems. */
export function reviewRoutes(review: ReviewService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['uploads'];
    app.get(
      '/uploads/:id/review',
      { schema: { tags, params: reviewParamsSchema, querystring: reviewQuerySchema, response: { 200: envelope(reviewSchema) } } },
      async (req) => ok(await review.read(requireAuth(req), req.params.id, req.query)),
    );
    app.post(
      '/uploads/:id/corrections',
      {
        bodyLimit: 16 * 1024 * 1024,
        schema: {
          tags,
          params: reviewParamsSchema,
          body: correctionsBodySchema,
          response: { 200: envelope(correctionsAnswerSchema) },
        },
      },
      async (req) => ok(await review.correct(requireAuth(req), req.params.id, req.body)),
    );
    app.post(
      '/uploads/:id/submit',
      { schema: { tags, params: reviewParamsSchema, response: { 200: envelope(submitAnswerSchema) } } },
      async (req) => ok(await review.submit(requireAuth(req), req.params.id)),
    );
    app.get(
      '/uploads/:id/problems',
      { schema: { tags, params: reviewParamsSchema, querystring: problemsQuerySchema } },
      async (req, reply) => {
        const file = await review.problems(requireAuth(req), req.params.id, req.query.format);
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', attachmentHeader(file.filename))
          .send(file.body);
      },
    );
  };
}
