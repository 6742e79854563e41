import { ALIASES_KEYWORD } from '@gdb/shared/uploads/column-matcher';
import type { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';

// The formats data models are checked with, the same for the upload check, the data-model
// generator and the components' ports: ajv-formats' full formats, except that `date-time` and
// `time` also take a local date-time or time, without a zone (`2026-03-01T14:30:00`, `14:30:00`):
// a sheet's dates carry none, and a file is read as its author wrote it (docs/decisions.md).

// ajv-formats is published as CommonJS with a default export.
const addFormats = 'default' in addFormatsModule ? (addFormatsModule.default as typeof addFormatsModule) : addFormatsModule;

/** Each format whose zone is optional, with the ajv-formats format that reads it so. */
const LOCAL_FORMATS = { 'date-time': 'iso-date-time', time: 'iso-time' } as const;

/** Every format by name, as data models read it. */
const DATA_MODEL_FORMATS: Record<string, (typeof fullFormats)[keyof typeof fullFormats]> = {
  ...fullFormats,
  ...Object.fromEntries(Object.entries(LOCAL_FORMATS).map(([name, local]) => [name, fullFormats[local]])),
};

/** The annotations data models may hold beyond JSON Schema's: a field's alternate names (the column matcher's). */
const DATA_MODEL_ANNOTATIONS = [ALIASES_KEYWORD] as const;

/** Adds the data models' formats, and their annotation keywords (so that a strict compiler takes them), to an ajv instance. */
export function addDataModelFormats(ajv: Ajv): void {
  addFormats(ajv);
  for (const [name, local] of Object.entries(LOCAL_FORMATS)) ajv.addFormat(name, fullFormats[local]);
  for (const keyword of DATA_MODEL_ANNOTATIONS) if (!ajv.getKeyword(keyword)) ajv.addKeyword(keyword);
}

/** Whether a text fits a format as data models read it. */
export function fitsFormat(format: string, text: string): boolean {
  const check: unknown = DATA_MODEL_FORMATS[format];
  if (check instanceof RegExp) return check.test(text);
  if (typeof check === 'function') return check(text) === true;
  const validate = (check as { validate?: unknown } | undefined)?.validate;
  if (validate instanceof RegExp) return validate.test(text);
  return typeof validate === 'function' && validate(text) === true;
}

/** The name of the CommonJS module standalone checks require for their formats (see runtime/models.ts). */
export const FORMATS_MODULE = 'gdb-data-model-formats';

/** That module's source: ajv-formats' full formats with the same local formats. */
export const FORMATS_MODULE_SOURCE = [
  'const { fullFormats } = require("ajv-formats/dist/formats");',
  `const local = ${JSON.stringify(LOCAL_FORMATS)};`,
  'const formats = Object.assign({}, fullFormats);',
  'for (const name of Object.keys(local)) formats[name] = fullFormats[local[name]];',
  'module.exports = formats;',
].join('\n');
