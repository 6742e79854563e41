import { CODES, type Issue } from '@gdb/shared/api/envelope';

/** An error a service throws on purpose: its status, envelope code and message reach the client. */
export class AppError extends Error {
  readonly status: number;
  readonly code: number;
  readonly issues: Issue[] | undefined;
  /** Seconds after which the client may try again (the answer's Retry-After). */
  retryAfterSeconds: number | undefined;

  constructor(status: number, code: number, message: string, issues?: Issue[]) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

export const badRequest = (message: string, issues?: Issue[]) => new AppError(400, CODES.badRequest, message, issues);
export const invalid = (message: string, issues?: Issue[]) => new AppError(422, CODES.invalid, message, issues);
export const unauthorized = (code: number, message: string) => new AppError(401, code, message);
export const forbidden = (message = 'You are not allowed to do this.') => new AppError(403, CODES.forbidden, message);
export const notFound = (message = 'Not found.') => new AppError(404, CODES.notFound, message);
export const conflict = (message: string) => new AppError(409, CODES.conflict, message);
export const tooMany = (message: string) => new AppError(429, CODES.tooMany, message);

/** The server is busy: the client may try again after `seconds`. */
export function unavailable(message: string, seconds: number): AppError {
  const error = new AppError(503, CODES.unavailable, message);
  error.retryAfterSeconds = seconds;
  return error;
}
