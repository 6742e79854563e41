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

export const issueSchema = z.object({ path: z.string(), message: z.string() });
export type Issue = z.infer<typeof issueSchema>;

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** The zod shape of a successful answer carrying `data`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), message: z.string(), data });
}

export const errorEnvelope = z.object({
  code: z.number(),
  message: z.string(),
  data: z.object({ issues: z.array(issueSchema).optional(), requestId: z.string().optional() }).nullable(),
});
