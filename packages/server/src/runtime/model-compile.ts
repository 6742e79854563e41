import { _, Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { addDataModelFormats, FORMATS_MODULE } from '../platform/data-model-formats.ts';
import { errorMessage } from '../platform/error-message.ts';
import { linearRegExp } from '../platform/linear-regexp.ts';

// The package is CommonJS with a `default` export; under ESM the namespace may wrap it once more.
const standaloneCode = 'default' in standaloneModule ? (standaloneModule.default as typeof standaloneModule) : standaloneModule;

/** One data model to compile, with every data model it references (each schema with its `$id`). */
export interface CompileRequest {
  id: string;
  schemas: { id: string; schema: Record<string, unknown> }[];
}

/** Standalone validator code exporting `v`, or why a data model (`failed`, an id) cannot be compiled. */
export type CompileAnswer = { code: string } | CompileFailure;

/** A data model that cannot be compiled: which (an id), why, and whether a limit stopped it. */
export interface CompileFailure {
  failed: string;
  message: string;
  limit?: boolean;
  /**
   * Stopped from outside (a limit, the worker's end), not refused by the compiler: the next
   * compile of the same versions may succeed (on a machine less busy), so it is not kept.
   */
  stopped?: boolean;
}

/**
 * Compiles one data model into standalone ajv code: patterns run by RE2 (re2js), a referenced
 * definition compiled once and called, never inlined at each use (one used 400 times took 15 s to
 * compile inlined, 0.3 s called). Runs in a worker thread with limits (model-compiler.ts).
 */
export function compileModel(request: CompileRequest): CompileAnswer {
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    inlineRefs: false,
    code: { source: true, lines: true, formats: _`require(${FORMATS_MODULE})`, regExp: linearRegExp },
  });
  addDataModelFormats(ajv);
  for (const { id, schema } of request.schemas) {
    try {
      ajv.addSchema(schema, id);
    } catch (error) {
      return { failed: id, message: errorMessage(error) };
    }
  }
  try {
    ajv.getSchema(request.id);
    return { code: standaloneCode(ajv, { v: request.id }).replace(/\/\*# sourceURL=.*?\*\//g, '') };
  } catch (error) {
    return { failed: request.id, message: errorMessage(error) };
  }
}
