import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';
import { _, Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { addDataModelFormats, FORMATS_MODULE, FORMATS_MODULE_SOURCE } from '../platform/data-model-formats.ts';
import { errorMessage } from '../platform/error-message.ts';
import type { Problem } from './checks.ts';

// The package is CommonJS with a `default` export; under ESM the namespace may wrap it once more.
const standaloneCode = 'default' in standaloneModule ? (standaloneModule.default as typeof standaloneModule) : standaloneModule;

/** CommonJS files a standalone validator may `require`; nothing else can be loaded inside a program. */
const ALLOWED_MODULES = [
  'ajv/dist/runtime/equal',
  'fast-deep-equal',
  'ajv/dist/runtime/ucs2length',
  'ajv/dist/runtime/validation_error',
  'ajv-formats/dist/formats',
] as const;

const requireHere = createRequire(import.meta.url);
const moduleSources = new Map<string, string>();

/** The source of an allowed module, read once from node_modules. */
function moduleSource(name: string): string | undefined {
  if (name === FORMATS_MODULE) return FORMATS_MODULE_SOURCE;
  if (!(ALLOWED_MODULES as readonly string[]).includes(name)) return undefined;
  let text = moduleSources.get(name);
  if (text === undefined) {
    text = fs.readFileSync(requireHere.resolve(name), 'utf8').replace(/^\/\/# sourceMappingURL=.*$/gm, '');
    moduleSources.set(name, text);
  }
  return text;
}

function requiredNames(code: string): string[] {
  return [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
}

/** The data model checks of a program: standalone validator code, its modules, and each model's export name. */
export interface ModelsCode {
  /** CommonJS source exporting one validator per data model used by a port. */
  validators: string;
  /** Allowed modules the validators need, by name. */
  modules: Map<string, string>;
  /** Export name of each port data model, by schema id. */
  exportOf: Map<string, string>;
}

/** Prepares a stored JSON schema for ajv: its id becomes the schema's `$id`; `$schema` is not needed. */
function prepared(doc: SchemaDocument): Record<string, unknown> {
  const { $schema: _meta, $id: _id, ...rest } = doc.jsonSchema;
  return { ...rest, $id: doc._id };
}

/**
 * Compiles the data models the ports use (with the schemas they reference) into standalone ajv
 * code that runs inside the isolate. Problems name the component whose port uses the model.
 */
export function buildModels(
  schemas: ReadonlyMap<string, SchemaDocument>,
  portModels: ReadonlyMap<string, string[]>,
  problems: Problem[],
): ModelsCode {
  const exportOf = new Map<string, string>();
  if (portModels.size === 0) return { validators: '', modules: new Map(), exportOf };
  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    code: { source: true, lines: true, formats: _`require(${FORMATS_MODULE})` },
  });
  addDataModelFormats(ajv);
  for (const doc of schemas.values()) {
    try {
      ajv.addSchema(prepared(doc), doc._id);
    } catch (error) {
      problems.push({ component: doc.name, message: modelProblem(doc, error, portModels) });
    }
  }
  const refs: Record<string, string> = {};
  let n = 0;
  for (const id of portModels.keys()) {
    const doc = schemas.get(id);
    if (!doc) continue;
    try {
      ajv.getSchema(id);
    } catch (error) {
      problems.push({ component: doc.name, message: modelProblem(doc, error, portModels) });
      continue;
    }
    const name = `m${n++}`;
    refs[name] = id;
    exportOf.set(id, name);
  }
  if (exportOf.size === 0) return { validators: '', modules: new Map(), exportOf };
  let validators: string;
  try {
    validators = standaloneCode(ajv, refs).replace(/\/\*# sourceURL=.*?\*\//g, '');
  } catch (error) {
    problems.push({ component: 'data models', message: `The data models cannot be compiled: ${String(error)}` });
    return { validators: '', modules: new Map(), exportOf: new Map() };
  }
  const modules = new Map<string, string>();
  const pending = requiredNames(validators);
  while (pending.length > 0) {
    const name = pending.pop() ?? '';
    if (modules.has(name)) continue;
    const source = moduleSource(name);
    if (source === undefined) {
      problems.push({ component: 'data models', message: `The data models need module "${name}", which programs cannot load` });
      continue;
    }
    modules.set(name, source);
    pending.push(...requiredNames(source));
  }
  return { validators, modules, exportOf };
}

function modelProblem(doc: SchemaDocument, error: unknown, portModels: ReadonlyMap<string, string[]>): string {
  const users = portModels.get(doc._id) ?? [];
  const where = users.length > 0 ? `${users[0]}: ` : '';
  const detail = errorMessage(error);
  return `${where}data model "${doc.name}" v${doc.version} (${doc._id}) is not a valid JSON schema: ${detail}`;
}
