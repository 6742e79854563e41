import { z } from 'zod';
import { idSchema } from '../users/users.schemas.ts';

/** The limits of the review calls: a page of rows, a batch of corrections, a value's length. */
export const REVIEW_LIMITS = {
  /** Most rows one read of the review answers. */
  pageMax: 5_000,
  /** Most cell changes and row removals or restores one correction call takes. */
  batchMax: 1_000,
  /** Longest value a corrected cell takes, in characters. */
  valueMax: 10_000,
  /** Most problem kinds the review lists for its message filter. */
  messageKinds: 50,
} as const;

/** The review's messages. */
export const REVIEW_MESSAGES = {
  notChecked: 'This upload is still being checked; review it once its check ends.',
  notReviewable: 'Only uploaded CSV, Excel and JSON files can be reviewed.',
  noFile: 'This upload has no file to review.',
  notSource: 'Only uploaded files can be reviewed.',
  unknownField: (field: string) => `The file has no column ${field}.`,
  unknownRow: (index: number) => `The file has no row ${index + 1}.`,
  nothingLeft: 'Every row was removed: there is nothing to submit.',
} as const;

export const reviewParamsSchema = z.object({ id: idSchema.describe('Id of the upload reviewed.') });

export const reviewQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0).describe('Rows to skip.'),
  limit: z.coerce.number().int().min(1).max(REVIEW_LIMITS.pageMax).default(500).describe('Most rows to answer.'),
  all: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('true: every row of the file in its order; false (default): the rows with a problem (or removed).'),
  field: z.string().max(500).optional().describe('Only the rows with a problem in this column.'),
  message: z
    .string()
    .max(500)
    .optional()
    .describe('Only the rows with a problem of this kind, or whose message holds this text.'),
});

const cellProblemSchema = z.object({
  field: z.string().nullable().describe('The column of the problem; null for a problem of the whole row.'),
  message: z.string().describe('What is wrong, in words the uploader can act on.'),
});
export type CellProblem = z.infer<typeof cellProblemSchema>;

const reviewRowSchema = z.object({
  index: z.number().describe('The row position in the file, from 0 (the header not counted).'),
  line: z.number().describe('The row number as the problems and the file name it (the header being row 1).'),
  values: z.array(z.string().nullable()).describe('The values, in the order of `fields`, as corrected; null for no value.'),
  problems: z.array(cellProblemSchema).describe('The problems of the row as it is now.'),
  removed: z.boolean().describe('Whether the row is removed from the corrected file.'),
  corrected: z.array(z.string()).describe('The columns corrected in this row.'),
});
export type ReviewRow = z.infer<typeof reviewRowSchema>;

export const reviewSchema = z.object({
  uploadId: z.string().describe('The upload reviewed.'),
  fileName: z.string().nullable().describe('Its file name.'),
  fields: z
    .array(z.string())
    .describe(
      "The file's columns, in order, renamed by its data source's mapping for the header when one is stored (ignored columns left out).",
    ),
  rowCount: z.number().describe('Rows in the file.'),
  problemRows: z.number().describe('Rows with a problem now (removed rows not counted).'),
  removedRows: z.number().describe('Rows removed.'),
  total: z.number().describe('Rows the filters keep (the paging runs over these).'),
  fieldProblems: z
    .array(z.object({ field: z.string().describe('The column.'), count: z.number().describe('Its problems.') }))
    .describe('Problems per column.'),
  messageKinds: z
    .array(
      z.object({
        kind: z.string().describe('The problem without its values, as the message filter takes it.'),
        count: z.number().describe('How many problems are of this kind.'),
      }),
    )
    .describe('The kinds of problems (values left out), the most frequent first.'),
  rows: z.array(reviewRowSchema).describe('The page of rows.'),
});
export type Review = z.infer<typeof reviewSchema>;

const cellValue = z.string().max(REVIEW_LIMITS.valueMax).nullable();

export const correctionsBodySchema = z
  .object({
    changes: z
      .array(
        z.object({
          rowIndex: z.number().int().min(0).describe('The row (its `index`).'),
          field: z.string().max(500).describe('The column.'),
          value: cellValue.describe('The new value; null or empty for no value.'),
        }),
      )
      .max(REVIEW_LIMITS.batchMax)
      .default([])
      .describe('Cells changed.'),
    removals: z.array(z.number().int().min(0)).max(REVIEW_LIMITS.batchMax).default([]).describe('Rows removed.'),
    restores: z
      .array(z.number().int().min(0))
      .max(REVIEW_LIMITS.batchMax)
      .default([])
      .describe('Rows removed before, kept again.'),
  })
  .refine((b) => b.changes.length + b.removals.length + b.restores.length <= REVIEW_LIMITS.batchMax, {
    message: `At most ${REVIEW_LIMITS.batchMax} changes in one call.`,
  });
export type CorrectionsBody = z.input<typeof correctionsBodySchema>;

export const correctionsAnswerSchema = z.object({
  rows: z.array(reviewRowSchema).describe('Each row changed, re-checked.'),
  problemRows: z.number().describe('Rows with a problem now.'),
  removedRows: z.number().describe('Rows removed now.'),
});
export type CorrectionsAnswer = z.infer<typeof correctionsAnswerSchema>;

export const submitAnswerSchema = z.object({
  uploadId: z.string().describe('The new upload of the corrected file; it is checked as any upload.'),
});

export const problemsQuerySchema = z.object({
  format: z.enum(['csv', 'xlsx']).default('csv').describe('The file type: CSV or XLSX.'),
});

/** The problem kind of a message: its quoted values left out, so that one filter takes them all. */
export function problemKind(message: string): string {
  return message.replace(/"[^"]*"/g, '…');
}
