import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Row } from './parse-text.ts';

export interface Problem {
  /** 1-based row number, or null for a problem with the whole file. */
  row: number | null;
  message: string;
}

export interface CheckResult {
  invalidRows: number;
  problems: Problem[];
  problemCount: number;
}

// ajv-formats is published as CommonJS with a default export.
const addFormats = 'default' in addFormatsModule ? addFormatsModule.default : addFormatsModule;

function describe(e: ErrorObject): string {
  const where = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : '';
  if (e.keyword === 'required') return `${String(e.params.missingProperty)} is required`;
  if (e.keyword === 'additionalProperties') return `${String(e.params.additionalProperty)} is not allowed`;
  return where ? `${where} ${e.message ?? 'is invalid'}` : (e.message ?? 'is invalid');
}

/** The schema each row must satisfy: the items of an array data model, else the model itself. */
export function rowSchemaOf(dataModel: Record<string, unknown>): Record<string, unknown> {
  const items = dataModel.items;
  if (dataModel.type === 'array' && items && typeof items === 'object' && !Array.isArray(items)) {
    return Object.fromEntries(Object.entries(items));
  }
  return dataModel;
}

/**
 * Checks every row against the data model. Text formats get their values coerced to the
 * model's types (a CSV "12" becomes 12 where a number is expected), in place.
 */
export function checkRows(
  rows: Row[],
  dataModel: Record<string, unknown>,
  options: { coerce: boolean; maxProblems: number },
): CheckResult {
  const ajv = new Ajv({ allErrors: true, coerceTypes: options.coerce, strict: false, useDefaults: false });
  addFormats(ajv);
  const validate = ajv.compile(rowSchemaOf(dataModel));
  const problems: Problem[] = [];
  let problemCount = 0;
  let invalidRows = 0;
  for (let i = 0; i < rows.length; i++) {
    if (validate(rows[i])) continue;
    invalidRows++;
    for (const e of validate.errors ?? []) {
      problemCount++;
      if (problems.length < options.maxProblems) problems.push({ row: i + 1, message: `Row ${i + 1}: ${describe(e)}` });
    }
  }
  return { invalidRows, problems, problemCount };
}
