import { z } from 'zod';

/** Envelope codes shared by server and client. */
export const CODES = {
  ok: 20000,
  badRequest: 40000,
  unauthenticated: 40100,
  forbidden: 40300,
  notFound: 40400,
  conflict: 40900,
  tooLarge: 41300,
  invalid: 42200,
  tooMany: 42900,
  internal: 50000,
  unavailable: 50300,
  badToken: 50008,
  revoked: 50012,
  expired: 50014,
} as const;

/** Codes on which the client offers to log in again. */
export const LOGOUT_CODES: readonly number[] = [CODES.badToken, CODES.revoked, CODES.expired];

export const issueSchema = z.object({
  path: z.string().describe('The field, dotted (roles.1); for the whole input, body or querystring.'),
  message: z.string().describe('What is wrong with it.'),
});
export type Issue = z.infer<typeof issueSchema>;

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** The zod shape of a successful answer carrying `data`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.number().describe('20000 on success.'),
    message: z.string().describe('success, or a short word on the outcome.'),
    data: data.description ? data : data.describe('The answer.'),
  });
}

export const errorEnvelope = z.object({
  code: z
    .number()
    .describe(
      'The HTTP status times 100 (40400, 42200, …), or 50008 (no or bad token), 50012 (session revoked), 50014 (token expired).',
    ),
  message: z.string().describe('What went wrong, in words the page can show.'),
  data: z
    .object({
      issues: z.array(issueSchema).optional().describe('Invalid input: each field and what is wrong with it.'),
      requestId: z.string().optional().describe('The request id the server logged the error under (500).'),
    })
    .nullable()
    .describe('Details, when there are any.'),
});
