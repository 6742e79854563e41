import {
  type CorrectionsAnswer,
  type CorrectionsBody,
  correctionsAnswerSchema,
  type Review,
  reviewSchema,
  submitAnswerSchema,
} from '@gdb/shared/uploads/review.schemas';
import { api } from '../../ground/request/api.ts';
import { Download, request } from '../../ground/request/request.ts';

/** The filters of the review's rows. */
export interface ReviewFilter {
  all: boolean;
  field?: string | undefined;
  message?: string | undefined;
}

/** GET /uploads/:id/review: a page of the rows with a problem (or all), filtered. */
export function reviewPage(
  uploadId: string,
  filter: ReviewFilter,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<Review> {
  const query: Record<string, string | number> = { offset, limit, all: String(filter.all) };
  if (filter.field) query.field = filter.field;
  if (filter.message) query.message = filter.message;
  return api.get(`/uploads/${encodeURIComponent(uploadId)}/review`, reviewSchema, { query, signal });
}

/** POST /uploads/:id/corrections: cells changed, rows removed or kept; answers those rows checked again. */
export function correctRows(uploadId: string, body: CorrectionsBody): Promise<CorrectionsAnswer> {
  return api.post(`/uploads/${encodeURIComponent(uploadId)}/corrections`, body, correctionsAnswerSchema);
}

/** POST /uploads/:id/submit: the corrected file as a new upload; answers its id. */
export async function submitCorrected(uploadId: string): Promise<string> {
  return (await api.post(`/uploads/${encodeURIComponent(uploadId)}/submit`, {}, submitAnswerSchema)).uploadId;
}

/** GET /uploads/:id/problems: the rows with a problem as a CSV or XLSX file, saved by the browser. */
export async function downloadProblems(uploadId: string, format: 'csv' | 'xlsx'): Promise<void> {
  const answer = await request({
    method: 'GET',
    path: `/uploads/${encodeURIComponent(uploadId)}/problems`,
    query: { format },
    responseType: 'blob',
  });
  if (!(answer instanceof Download)) throw new Error('The problems file was not received.');
  const url = URL.createObjectURL(answer.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = answer.filename ?? `problems.${format}`;
  link.click();
  URL.revokeObjectURL(url);
}
