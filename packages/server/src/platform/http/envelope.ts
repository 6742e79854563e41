import { CODES, type Envelope } from '@gdb/shared/api/envelope';

/** Wraps a successful answer in the envelope. */
export function ok<T>(data: T, message = 'success'): Envelope<T> {
  return { code: CODES.ok, message, data };
}
