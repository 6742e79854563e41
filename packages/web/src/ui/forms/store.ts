import { analyze, analyzeOr, type ExpressionScope, isExpression } from './expression.ts';
import { isEmptyValue, type ValidationOutcome, validateValue } from './rules.ts';
import { type FieldSchema, initialValue, modelOf, type RootSchema } from './schema.ts';

/**
 * The state of one dynamic form: its value (replaced immutably, so unchanged parts keep their
 * identity), the original value for the dirty state and reset, and each field's validation result.
 * Fields subscribe to their own path, so an edit re-renders the field edited (and the fields whose
 * options are expressions), not the whole form.
 */

export type Path = readonly (string | number)[];
export const pathKey = (path: Path) => path.join('.');

type FieldStatus = 'valid' | 'invalid' | 'validating';
export interface FieldResult {
  status: FieldStatus;
  message: string;
}
const VALID: FieldResult = { status: 'valid', message: '' };

function getIn(value: unknown, path: Path): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

function setIn(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const base = (value && typeof value === 'object' ? value : typeof head === 'number' ? [] : {}) as Record<
    string | number,
    unknown
  >;
  const copy = (Array.isArray(base) ? [...base] : { ...base }) as Record<string | number, unknown>;
  copy[head] = setIn(base[head], rest, next);
  return copy;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The schema of a value path (array indexes step into `items`). */
function fieldAt(root: FieldSchema, path: Path): FieldSchema | undefined {
  let at: FieldSchema | undefined = root;
  for (const key of path) {
    if (!at) return undefined;
    at = typeof key === 'number' ? at.items : at.properties?.[key];
  }
  return at;
}

/** `a.b[i].c` or `a.b[0].c` as a path, `[i]` taking the indexes of the array items around the field. */
function parseFieldPath(text: string, idxChain: readonly number[] = []): Path {
  let n = 0;
  const out: (string | number)[] = [];
  for (const part of text.replace(/^\$root\.?/, '').split(/\.|(?=\[)/)) {
    if (!part) continue;
    const index = /^\[(\w+)\]$/.exec(part);
    if (!index) out.push(part);
    else if (index[1] === 'i') out.push(idxChain[n++] ?? 0);
    else out.push(Number(index[1]));
  }
  return out;
}

const indexesOf = (path: Path) => path.filter((k): k is number => typeof k === 'number');

type Listener = () => void;

function listen(map: Map<string, Set<Listener>>, key: string, listener: Listener): () => void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) map.delete(key);
  };
}

export class FormStore {
  value: Record<string, unknown>;
  original: Record<string, unknown>;
  private results = new Map<string, FieldResult>();
  private listeners = new Map<string, Set<Listener>>();
  /** Listeners of one field's validation result only. */
  private resultListeners = new Map<string, Set<Listener>>();
  /** Listeners of every change (expression-driven options, the dirty state). */
  private anyListeners = new Set<Listener>();
  private pending = new Map<string, AbortController>();
  private templated: Path[] = [];
  /** Bumped at every change, for snapshots of expression-driven options. */
  revision = 0;
  temp: Record<string, unknown> = {};

  constructor(
    readonly schema: RootSchema,
    /** URL prefixes of the check services the ajax rule may ask (none: it runs nowhere). */
    readonly formCheckUrls: readonly string[],
    value?: unknown,
  ) {
    this.value = initialValue(schema, value);
    this.collectTemplates(schema, []);
    this.applyTemplates();
    this.original = structuredClone(this.value);
  }

  get config() {
    return this.schema.globalConfig;
  }

  scope(path: Path, self?: unknown): ExpressionScope {
    return {
      $root: this.value,
      $const: this.config.constants,
      $self: self === undefined ? getIn(this.value, path) : self,
      $temp: this.temp,
      idxChain: indexesOf(path),
    };
  }

  /** A `ui` option (hidden, disabled, readonly …) of a field, expressions evaluated. */
  option(field: FieldSchema, name: 'hidden' | 'disabled' | 'readonly', path: Path): boolean {
    const raw = field.ui[name];
    return Boolean(isExpression(raw) ? analyzeOr(raw, this.scope(path), false) : raw);
  }

  // ---- subscriptions ----

  /** Listens to the value at `path` (changed there, above or below). */
  subscribe(path: Path, listener: Listener): () => void {
    return listen(this.listeners, pathKey(path), listener);
  }

  /** Listens to the validation result of the field at `path`. */
  subscribeResult(path: Path, listener: Listener): () => void {
    return listen(this.resultListeners, pathKey(path), listener);
  }

  subscribeAny(listener: Listener): () => void {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
  }

  /** Tells the fields at, above and below `key` (and everyone listening to any change). */
  private notify(key: string) {
    this.revision++;
    for (const [k, set] of this.listeners) {
      if (k === key || key === '' || k === '' || k.startsWith(`${key}.`) || key.startsWith(`${k}.`)) {
        for (const l of set) l();
      }
    }
    for (const l of this.anyListeners) l();
  }

  private notifyResult(key: string) {
    for (const l of this.resultListeners.get(key) ?? []) l();
  }

  // ---- values ----

  get(path: Path): unknown {
    return getIn(this.value, path);
  }

  result(path: Path): FieldResult {
    return this.results.get(pathKey(path)) ?? VALID;
  }

  /** Sets a value, recomputes templated values and validates the field and the fields linked to it. */
  set(path: Path, next: unknown, validate = true) {
    this.value = setIn(this.value, path, next) as Record<string, unknown>;
    const changed = this.applyTemplates();
    this.notify(pathKey(path));
    for (const p of changed) this.notify(pathKey(p));
    if (!validate) return;
    const field = fieldAt(this.schema, path);
    if (field) this.validateField(path, field, true);
  }

  get dirty(): boolean {
    return !same(this.value, this.original);
  }

  /** Back to the original value, every result cleared. */
  reset() {
    const had = [...this.results.keys()];
    for (const c of this.pending.values()) c.abort();
    this.pending.clear();
    this.value = structuredClone(this.original);
    this.results.clear();
    for (const k of had) this.notifyResult(k);
    this.notify('');
  }

  /** Replaces the value (and the original): a new document was loaded into the form. */
  load(value: unknown) {
    const had = [...this.results.keys()];
    this.value = initialValue(this.schema, value);
    this.applyTemplates();
    this.original = structuredClone(this.value);
    this.results.clear();
    for (const k of had) this.notifyResult(k);
    this.notify('');
  }

  /** The model of a new array item at `arrayPath`. */
  newItem(arrayPath: Path): unknown {
    const items = fieldAt(this.schema, arrayPath)?.items;
    return items ? modelOf(items) : '';
  }

  private collectTemplates(field: FieldSchema, path: Path) {
    if (field.valueTemplate !== undefined && path.length > 0) this.templated.push(path);
    for (const [key, child] of Object.entries(field.properties ?? {})) this.collectTemplates(child, [...path, key]);
  }

  /** Fields with a `valueTemplate` take its value; answers the paths that changed. */
  private applyTemplates(): Path[] {
    const changed: Path[] = [];
    for (const path of this.templated) {
      const field = fieldAt(this.schema, path);
      const next = analyzeOr(field?.valueTemplate, this.scope(path), undefined);
      if (next !== undefined && !same(next, this.get(path))) {
        this.value = setIn(this.value, path, next) as Record<string, unknown>;
        changed.push(path);
      }
    }
    return changed;
  }

  // ---- validation ----

  private setResult(key: string, result: FieldResult) {
    const old = this.results.get(key) ?? VALID;
    if (old.status === result.status && old.message === result.message) return;
    if (result.status === 'valid' && result.message === '') this.results.delete(key);
    else this.results.set(key, result);
    this.notifyResult(key);
  }

  /** Hidden, with the form set to skip the rules of hidden fields (a hidden parent hides its children). */
  private skipped(path: Path): boolean {
    if (!this.config.ignoreRulesWhenHidden) return false;
    for (let i = 0; i <= path.length; i++) {
      const p = path.slice(0, i);
      const f = fieldAt(this.schema, p);
      if (f && this.option(f, 'hidden', p)) return true;
    }
    return false;
  }

  /**
   * Validates one field: synchronously when its rules allow, else it shows 'validating' (with the
   * delayed rule's message) and a newer check of the same field cancels the pending one.
   */
  validateField(path: Path, field: FieldSchema, withLinks = false): ValidationOutcome | Promise<ValidationOutcome | null> {
    const key = pathKey(path);
    this.pending.get(key)?.abort();
    this.pending.delete(key);
    if (this.skipped(path)) {
      this.setResult(key, VALID);
      return { valid: true, message: '' };
    }
    const controller = new AbortController();
    const value = this.get(path);
    const outcome = validateValue(value, field.rules, {
      scope: this.scope(path, value),
      messages: this.config.validationMsg,
      formCheckUrls: this.formCheckUrls,
      signal: controller.signal,
      onPending: (message) => this.setResult(key, { status: 'validating', message }),
    });
    const finish = (o: ValidationOutcome) => {
      this.setResult(key, o.valid ? VALID : { status: 'invalid', message: o.message });
      if (withLinks) this.validateLinks(path, field, o.linkItems ?? []);
    };
    if (!(outcome instanceof Promise)) {
      finish(outcome);
      return outcome;
    }
    this.pending.set(key, controller);
    if (this.result(path).status !== 'validating') this.setResult(key, { status: 'validating', message: '' });
    return outcome.then((o) => {
      if (o === null || controller.signal.aborted) return null;
      this.pending.delete(key);
      finish(o);
      return o;
    });
  }

  private validateLinks(path: Path, field: FieldSchema, linkItems: string[]) {
    const chain = indexesOf(path);
    const targets = [...field.ui.linkFields.map((l) => l.fieldPath), ...linkItems];
    for (const target of targets) {
      const p = parseFieldPath(target, chain);
      const f = fieldAt(this.schema, p);
      if (f && pathKey(p) !== pathKey(path)) void this.validateField(p, f);
    }
  }

  /** Every field of the form (items of arrays included) with rules, in document order. */
  fieldsWithRules(): [Path, FieldSchema][] {
    const out: [Path, FieldSchema][] = [];
    const walk = (field: FieldSchema, path: Path) => {
      if (Object.keys(field.rules).length > 0) out.push([path, field]);
      if (field.type === 'object') for (const [k, c] of Object.entries(field.properties ?? {})) walk(c, [...path, k]);
      if (field.type === 'array' && field.items) {
        const list = this.get(path);
        if (Array.isArray(list)) for (let i = 0; i < list.length; i++) walk(field.items as FieldSchema, [...path, i]);
      }
    };
    walk(this.schema, []);
    return out;
  }

  /** Validates every field; answers true when all pass (pending checks awaited). */
  async validateAll(): Promise<boolean> {
    const outcomes = this.fieldsWithRules().map(([path, field]) => this.validateField(path, field));
    const done = await Promise.all(outcomes);
    return done.every((o) => o === null || o.valid);
  }

  hasErrors(): boolean {
    for (const r of this.results.values()) if (r.status === 'invalid') return true;
    return false;
  }

  /** Drops the results under an array whose items moved or went (their paths changed). */
  clearResultsUnder(path: Path) {
    const key = pathKey(path);
    for (const k of [...this.results.keys()]) {
      if (k.startsWith(`${key}.`)) {
        this.results.delete(k);
        this.notifyResult(k);
      }
    }
  }

  dispose() {
    for (const c of this.pending.values()) c.abort();
    this.pending.clear();
  }
}

/** True when the field's `required` rule is on (it may be an expression). */
export function isRequired(store: FormStore, field: FieldSchema, path: Path): boolean {
  const rule = field.rules.required;
  const raw = rule && typeof rule === 'object' && 'value' in rule ? (rule as { value: unknown }).value : rule;
  try {
    const v = analyze(raw, store.scope(path));
    return v !== false && !isEmptyValue(v);
  } catch {
    return false;
  }
}
