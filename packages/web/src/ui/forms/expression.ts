import { type LinearPattern, linearPattern } from '@gdb/shared/schemas/linear-pattern';
import jsep from 'jsep';

/**
 * Expressions of the dynamic forms, evaluated without `eval` or `new Function` (the content
 * security policy allows scripts from the app's origin only): jsep parses the text, and a small
 * interpreter walks the tree. It reads data, never writes it; member access to `constructor`,
 * `__proto__` and `prototype` is refused, inherited members are not visible, only a short list of
 * string and array methods may be called, and every evaluation has a step budget.
 *
 * Expression values are strings starting with `dx:`, where `{{$root.a.b}}`, `{{$const.x}}`,
 * `{{$self}}` and `{{$temp.y}}` read the form's value, its constants, the field's own value and
 * scratch data; `[i]` inside the braces stands for the index of the enclosing array item (the
 * first `[i]` the outermost array). Arrow functions (`x => x.a`) may be passed to the array methods.
 */

jsep.addBinaryOp('=>', 0.1);

const EXPRESSION_PREFIX = 'dx:';
/** Steps one evaluation may take: each node visited and each element an array method goes through. */
const DEFAULT_STEP_BUDGET = 100_000;
const MAX_STRING = 100_000;
const REFUSED = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__']);

export class ExpressionError extends Error {
  override name = 'ExpressionError';
}

export interface ExpressionScope {
  $root?: unknown;
  $const?: unknown;
  $self?: unknown;
  $temp?: unknown;
  /** Indexes of the array items around the field, outermost first. */
  idxChain?: readonly number[];
}

type Node = jsep.Expression;
interface Arrow {
  readonly kind: 'arrow';
  params: string[];
  body: Node;
  env: Map<string, unknown>;
}

const cache = new Map<string, Node>();
const CACHE_LIMIT = 2000;

/** Parses once per text (a form re-evaluates the same expressions at every keystroke). */
function parseExpression(text: string): Node {
  const known = cache.get(text);
  if (known) return known;
  let node: Node;
  try {
    node = jsep(text);
  } catch (error) {
    throw new ExpressionError(`Invalid expression: ${(error as Error).message}`);
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, node);
  return node;
}

const isArrow = (v: unknown): v is Arrow => typeof v === 'object' && v !== null && (v as Arrow).kind === 'arrow';

class Interpreter {
  private steps = 0;
  constructor(private readonly budget: number) {}

  step(count = 1) {
    this.steps += count;
    if (this.steps > this.budget) throw new ExpressionError(`Expression refused: more than ${this.budget} steps`);
  }

  run(node: Node, env: Map<string, unknown>): unknown {
    this.step();
    switch (node.type) {
      case 'Literal':
        return (node as jsep.Literal).value;
      case 'Identifier':
        return this.identifier((node as jsep.Identifier).name, env);
      case 'ThisExpression':
        throw new ExpressionError('this is not available in expressions');
      case 'ArrayExpression':
        return (node as jsep.ArrayExpression).elements.map((e) => (e ? this.run(e, env) : undefined));
      case 'UnaryExpression':
        return this.unary(node as jsep.UnaryExpression, env);
      case 'BinaryExpression':
        return this.binary(node as jsep.BinaryExpression, env);
      case 'ConditionalExpression': {
        const c = node as jsep.ConditionalExpression;
        return this.run(c.test, env) ? this.run(c.consequent, env) : this.run(c.alternate, env);
      }
      case 'MemberExpression': {
        const m = node as jsep.MemberExpression;
        const object = this.run(m.object, env);
        if (m.optional && (object === null || object === undefined)) return undefined;
        return member(object, this.key(m, env));
      }
      case 'CallExpression':
        return this.call(node as jsep.CallExpression, env);
      case 'SequenceExpression':
      case 'Compound': {
        const list = (node as jsep.Compound).body ?? (node as jsep.SequenceExpression).expressions;
        let last: unknown;
        for (const item of list) last = this.run(item, env);
        return last;
      }
      default:
        throw new ExpressionError(`Unsupported expression: ${node.type}`);
    }
  }

  private identifier(name: string, env: Map<string, unknown>): unknown {
    if (env.has(name)) return env.get(name);
    if (name === 'undefined') return undefined;
    if (name === 'NaN') return Number.NaN;
    if (name === 'Infinity') return Number.POSITIVE_INFINITY;
    throw new ExpressionError(`Unknown name: ${name}`);
  }

  private key(m: jsep.MemberExpression, env: Map<string, unknown>): string | number {
    const raw = m.computed ? this.run(m.property, env) : (m.property as jsep.Identifier).name;
    if (typeof raw === 'number') return raw;
    const key = String(raw);
    if (REFUSED.has(key)) throw new ExpressionError(`Access to ${key} is refused`);
    return key;
  }

  private unary(u: jsep.UnaryExpression, env: Map<string, unknown>): unknown {
    const v = this.run(u.argument, env);
    switch (u.operator) {
      case '!':
        return !v;
      case '-':
        return -(v as number);
      case '+':
        return +(v as number);
      case '~':
        return ~(v as number);
      case 'typeof':
        return isArrow(v) ? 'function' : typeof v;
      default:
        throw new ExpressionError(`Unsupported operator: ${u.operator}`);
    }
  }

  private binary(b: jsep.BinaryExpression, env: Map<string, unknown>): unknown {
    const op = b.operator;
    if (op === '=>') return arrow(b, env);
    if (op === '&&') return this.run(b.left, env) && this.run(b.right, env);
    if (op === '||') return this.run(b.left, env) || this.run(b.right, env);
    if (op === '??') return this.run(b.left, env) ?? this.run(b.right, env);
    const l = this.run(b.left, env) as never;
    const r = this.run(b.right, env) as never;
    switch (op) {
      case '+': {
        const sum = (l as number) + (r as number);
        if (typeof sum === 'string') this.text(sum);
        return sum;
      }
      case '-':
        return l - r;
      case '*':
        return l * r;
      case '/':
        return l / r;
      case '%':
        return l % r;
      case '**':
        return l ** r;
      case '==':
        // biome-ignore lint/suspicious/noDoubleEquals: the expression language keeps JavaScript's loose equality
        return l == r;
      case '!=':
        // biome-ignore lint/suspicious/noDoubleEquals: the expression language keeps JavaScript's loose equality
        return l != r;
      case '===':
        return l === r;
      case '!==':
        return l !== r;
      case '<':
        return l < r;
      case '>':
        return l > r;
      case '<=':
        return l <= r;
      case '>=':
        return l >= r;
      case '&':
        return l & r;
      case '|':
        return l | r;
      case '^':
        return l ^ r;
      case '<<':
        return l << r;
      case '>>':
        return l >> r;
      case '>>>':
        return l >>> r;
      case 'in':
        return typeof r === 'object' && r !== null && Object.hasOwn(r, l);
      default:
        throw new ExpressionError(`Unsupported operator: ${op}`);
    }
  }

  text(s: string) {
    if (s.length > MAX_STRING) throw new ExpressionError(`Expression refused: a text longer than ${MAX_STRING} characters`);
    this.step(Math.ceil(s.length / 100));
    return s;
  }

  private call(c: jsep.CallExpression, env: Map<string, unknown>): unknown {
    const args = c.arguments.map((a) => this.run(a, env));
    if (c.callee.type === 'Identifier') {
      const name = (c.callee as jsep.Identifier).name;
      const helper = Object.hasOwn(HELPERS, name) ? HELPERS[name] : undefined;
      if (helper && !env.has(name)) return helper(this, args);
      const fn = this.run(c.callee, env);
      if (isArrow(fn)) return this.apply(fn, args);
      throw new ExpressionError(`Not a function: ${name}`);
    }
    if (c.callee.type !== 'MemberExpression') {
      this.run(c.callee, env);
      throw new ExpressionError('Only methods of texts and lists may be called');
    }
    const m = c.callee as jsep.MemberExpression;
    const target = this.run(m.object, env);
    const name = this.key(m, env);
    if (typeof target === 'string' && typeof name === 'string' && Object.hasOwn(STRING_METHODS, name)) {
      return STRING_METHODS[name]?.(this, target, args);
    }
    if (Array.isArray(target) && typeof name === 'string' && Object.hasOwn(ARRAY_METHODS, name)) {
      this.step(target.length);
      return ARRAY_METHODS[name]?.(this, target, args);
    }
    throw new ExpressionError(`Calling ${String(name)} is not allowed`);
  }

  apply(fn: unknown, args: unknown[]): unknown {
    if (!isArrow(fn)) throw new ExpressionError('Expected an arrow function');
    const env = new Map(fn.env);
    fn.params.forEach((p, i) => {
      env.set(p, args[i]);
    });
    return this.run(fn.body, env);
  }
}

function arrow(b: jsep.BinaryExpression, env: Map<string, unknown>): Arrow {
  const left = b.left as Node | null;
  const names = (list: Node[]) =>
    list.map((n) => {
      if (n.type !== 'Identifier') throw new ExpressionError('Arrow parameters must be names');
      return (n as jsep.Identifier).name;
    });
  let params: string[];
  if (!left) params = [];
  else if (left.type === 'Identifier') params = names([left]);
  else if (left.type === 'SequenceExpression') params = names((left as jsep.SequenceExpression).expressions);
  else throw new ExpressionError('Arrow parameters must be names');
  return { kind: 'arrow', params, body: b.right, env };
}

/** Reads one own member; inherited members (functions of prototypes among them) read as undefined. */
function member(object: unknown, key: string | number): unknown {
  if (object === null || object === undefined) throw new ExpressionError(`Cannot read ${String(key)} of ${object}`);
  if (typeof object === 'string' || Array.isArray(object)) {
    if (key === 'length') return object.length;
    if (typeof key === 'number' || /^\d+$/.test(key)) return (object as ArrayLike<unknown>)[Number(key)];
    return undefined;
  }
  if (typeof object !== 'object') return undefined;
  return Object.hasOwn(object, key) ? (object as Record<string | number, unknown>)[key] : undefined;
}

type Method<T> = (it: Interpreter, target: T, args: unknown[]) => unknown;
const str = (v: unknown) => String(v ?? '');
const num = (v: unknown) => (v === undefined ? undefined : Number(v));

const STRING_METHODS: Record<string, Method<string>> = {
  includes: (_, s, a) => s.includes(str(a[0])),
  startsWith: (_, s, a) => s.startsWith(str(a[0])),
  endsWith: (_, s, a) => s.endsWith(str(a[0])),
  indexOf: (_, s, a) => s.indexOf(str(a[0])),
  toLowerCase: (_, s) => s.toLowerCase(),
  toUpperCase: (_, s) => s.toUpperCase(),
  trim: (_, s) => s.trim(),
  slice: (_, s, a) => s.slice(num(a[0]), num(a[1])),
  substring: (_, s, a) => s.substring(Number(a[0] ?? 0), num(a[1])),
  split: (it, s, a) => {
    it.step(s.length);
    return s.split(str(a[0]));
  },
  replace: (it, s, a) => it.text(s.split(str(a[0])).join(str(a[1]))),
  padStart: (it, s, a) => it.text(s.padStart(Math.min(Number(a[0]), MAX_STRING + 1), str(a[1] ?? ' '))),
};

const ARRAY_METHODS: Record<string, Method<unknown[]>> = {
  includes: (_, l, a) => l.includes(a[0]),
  indexOf: (_, l, a) => l.indexOf(a[0]),
  join: (it, l, a) => it.text(l.map(str).join(a[0] === undefined ? ',' : str(a[0]))),
  slice: (_, l, a) => l.slice(num(a[0]), num(a[1])),
  map: (it, l, a) => l.map((v, i) => it.apply(a[0], [v, i])),
  filter: (it, l, a) => l.filter((v, i) => it.apply(a[0], [v, i])),
  some: (it, l, a) => l.some((v, i) => it.apply(a[0], [v, i])),
  every: (it, l, a) => l.every((v, i) => it.apply(a[0], [v, i])),
  find: (it, l, a) => l.find((v, i) => it.apply(a[0], [v, i])),
  findIndex: (it, l, a) => l.findIndex((v, i) => it.apply(a[0], [v, i])),
  reduce: (it, l, a) => l.reduce((acc, v, i) => it.apply(a[0], [acc, v, i]), a[1]),
};

const HELPERS: Record<string, (it: Interpreter, args: unknown[]) => unknown> = {
  Number: (_, a) => Number(a[0]),
  String: (it, a) => it.text(str(a[0])),
  Boolean: (_, a) => Boolean(a[0]),
  isNaN: (_, a) => Number.isNaN(Number(a[0])),
  parseInt: (_, a) => Number.parseInt(str(a[0]), 10),
  parseFloat: (_, a) => Number.parseFloat(str(a[0])),
  abs: (_, a) => Math.abs(Number(a[0])),
  min: (_, a) => Math.min(...a.map(Number)),
  max: (_, a) => Math.max(...a.map(Number)),
  round: (_, a) => Math.round(Number(a[0])),
  floor: (_, a) => Math.floor(Number(a[0])),
  ceil: (_, a) => Math.ceil(Number(a[0])),
  keys: (_, a) => (a[0] && typeof a[0] === 'object' ? Object.keys(a[0]) : []),
  isArray: (_, a) => Array.isArray(a[0]),
  matches: (it, a) => {
    const text = str(a[0]);
    it.step(text.length);
    return safeRegExp(str(a[1]), str(a[2] ?? '')).test(text);
  },
};

/**
 * A regular expression from text, run by RE2 (re2js): linear in the text, so no pattern can freeze
 * the tab (`^(a+)+$` on 41 characters held a thread for minutes). Refused when invalid, or when it
 * needs what RE2 cannot run (backreferences, lookaround), never thrown as a SyntaxError to the form.
 */
export function safeRegExp(source: string, flags = ''): LinearPattern {
  try {
    return linearPattern(source, flags);
  } catch {
    throw new ExpressionError(`Invalid regular expression: ${source}`);
  }
}

/** Evaluates one expression text (without the `dx:` prefix and braces) in a scope of names. */
export function evaluate(text: string, names: Record<string, unknown> = {}, budget = DEFAULT_STEP_BUDGET): unknown {
  const node = parseExpression(text);
  const env = new Map(Object.entries(names));
  let result: unknown;
  try {
    result = new Interpreter(budget).run(node, env);
  } catch (error) {
    if (error instanceof ExpressionError) throw error;
    throw new ExpressionError(`Expression failed: ${(error as Error).message}`);
  }
  if (isArrow(result)) throw new ExpressionError('An expression must give a value, not a function');
  return result;
}

const BRACES = /\{\{\s*(.*?)\s*\}\}/g;

/**
 * Turns a `dx:` text into plain expression text: `{{$root.persons[i].age}}` becomes
 * `$root.persons[0].age` for the first item, `[i]` taking the indexes of `idxChain` in order.
 */
export function expandBraces(body: string, idxChain: readonly number[] = []): string {
  return body.replace(BRACES, (_whole, inner: string) => {
    let n = 0;
    const expanded = inner.replace(/\[i\]/g, () => {
      const index = idxChain[n++];
      if (index === undefined) throw new ExpressionError('[i] used outside an array item');
      return `[${index}]`;
    });
    return `(${expanded})`;
  });
}

export const isExpression = (value: unknown): value is string => typeof value === 'string' && value.startsWith(EXPRESSION_PREFIX);

/**
 * A value of the form library: a `dx:` expression is evaluated in the scope, any other value is
 * answered as it is.
 */
export function analyze(value: unknown, scope: ExpressionScope = {}, budget = DEFAULT_STEP_BUDGET): unknown {
  if (!isExpression(value)) return value;
  const text = expandBraces(value.slice(EXPRESSION_PREFIX.length), scope.idxChain);
  return evaluate(text, { $root: scope.$root, $const: scope.$const ?? {}, $self: scope.$self, $temp: scope.$temp ?? {} }, budget);
}

/** Like analyze, but a failing expression answers `fallback` (and says why in the console). */
export function analyzeOr<T>(value: unknown, scope: ExpressionScope, fallback: T): unknown {
  try {
    return analyze(value, scope);
  } catch (error) {
    console.warn(`Form expression ${String(value)}: ${(error as Error).message}`);
    return fallback;
  }
}
