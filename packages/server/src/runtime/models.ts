import fs from 'node:fs';
import { createRequire } from 'node:module';
import { type SchemaDocument, schemaContentKey } from '@gdb/shared/schemas/schemas.schemas';
import { FORMATS_MODULE, FORMATS_MODULE_SOURCE } from '../platform/data-model-formats.ts';
import type { Problem } from './checks.ts';
import { schemaRefs } from './graph.ts';
import type { CompileFailure, CompileRequest } from './model-compile.ts';
import type { ModelCompiler } from './model-compiler.ts';

/** CommonJS files a standalone validator may `require`; nothing else can be loaded inside a program. */
const ALLOWED_MODULES = [
  'ajv/dist/runtime/equal',
  'fast-deep-equal',
  'ajv/dist/runtime/ucs2length',
  'ajv/dist/runtime/validation_error',
  'ajv-formats/dist/formats',
  // Patterns run by RE2 (docs/decisions.md).
  're2js',
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

/** A data model with every data model it references, in the order met; the key of the versions they are. */
function compileRequest(id: string, schemas: ReadonlyMap<string, SchemaDocument>): { key: string; request: CompileRequest } {
  const order = [id];
  for (let i = 0; i < order.length; i++) {
    const doc = schemas.get(order[i] as string);
    for (const ref of doc ? schemaRefs(doc.jsonSchema) : []) if (schemas.has(ref) && !order.includes(ref)) order.push(ref);
  }
  const docs = order.map((ref) => schemas.get(ref) as SchemaDocument);
  const key = docs.map(schemaContentKey).join('\n');
  return { key, request: { id, schemas: docs.map((d) => ({ id: d._id, schema: prepared(d) })) } };
}

/** One model's standalone code as an expression: its own module scope, answering its validator. */
function wrapped(name: string, code: string): string {
  return `exports.${name} = (function () {\nconst module = { exports: {} };\nconst exports = module.exports;\n${code.trimEnd()}\nreturn module.exports.v;\n})();`;
}

/**
 * Compiles the data models the ports use (with the schemas they reference) into standalone ajv
 * code that runs inside the isolate, each off the event loop and kept by the versions it is made
 * of (model-compiler.ts). Problems name the component whose port uses the model.
 */
export async function buildModels(
  schemas: ReadonlyMap<string, SchemaDocument>,
  portModels: ReadonlyMap<string, string[]>,
  problems: Problem[],
  compiler: ModelCompiler,
): Promise<ModelsCode> {
  const exportOf = new Map<string, string>();
  const ids = [...portModels.keys()].filter((id) => schemas.has(id));
  const answers = await Promise.all(
    ids.map((id) => {
      const { key, request } = compileRequest(id, schemas);
      return compiler.compile(key, request);
    }),
  );
  const parts: string[] = [];
  const reported = new Set<string>();
  answers.forEach((answer, i) => {
    const id = ids[i] as string;
    if ('failed' in answer) {
      const doc = schemas.get(answer.failed) ?? (schemas.get(id) as SchemaDocument);
      const message = modelProblem(doc, answer, portModels);
      if (!reported.has(message)) problems.push({ component: doc.name, message });
      reported.add(message);
      return;
    }
    const name = `m${exportOf.size}`;
    exportOf.set(id, name);
    parts.push(wrapped(name, answer.code));
  });
  if (exportOf.size === 0) return { validators: '', modules: new Map(), exportOf };
  const validators = parts.join('\n');
  return { validators, modules: requiredModules(validators, problems), exportOf };
}

/** The allowed modules the validators need, with the modules those need; a module not allowed is a problem. */
function requiredModules(validators: string, problems: Problem[]): Map<string, string> {
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
  return modules;
}

function modelProblem(doc: SchemaDocument, answer: CompileFailure, portModels: ReadonlyMap<string, string[]>): string {
  const users = portModels.get(doc._id) ?? [];
  const where = users.length > 0 ? `${users[0]}: ` : '';
  const what = answer.limit ? 'cannot be compiled' : 'is not a valid JSON schema';
  return `${where}data model "${doc.name}" v${doc.version} (${doc._id}) ${what}: ${answer.message}`;
}
