import { normaliseName } from '@gdb/shared/uploads/column-matcher';
import { ParseError } from './limits.ts';
import type { ReadHints } from './table.ts';

/** The data model's fields as a refusal lists them. */
export function fieldList(hints: ReadHints): string {
  return hints.fields.join(', ');
}

/** Whether a file's names (a header, its objects' keys) hold none of the data model's fields: it holds other data. */
function holdsNoModelField(names: Iterable<string>, hints: ReadHints): boolean {
  if (hints.fields.length === 0) return false;
  const held = new Set(names);
  if (hints.fields.some((field) => held.has(field))) return false;
  const { mapped } = hints;
  return !mapped || ![...held].some((name) => mapped.has(normaliseName(name)));
}

/** Refuses a file whose names hold none of the data model's fields, as a sheet without them is; `what` names them. */
export function refuseWithoutModelFields(names: Iterable<string>, hints: ReadHints, what: string): void {
  if (holdsNoModelField(names, hints)) {
    throw new ParseError(`${what} none of the data model's fields (${fieldList(hints)}).`);
  }
}
