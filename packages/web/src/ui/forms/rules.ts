import { FORM_CHECK_MESSAGES, formCheckOf, formCheckRequestUrl } from '@gdb/shared/schemas/form-checks';
import type { LinearPattern } from '@gdb/shared/schemas/linear-pattern';
import { analyze, type ExpressionScope, safeRegExp } from './expression.ts';

/**
 * The validation rules of the dynamic forms. A field's `rules` map a rule name to its value, or to
 * `{ value, errMsg, options: { delay, delayMsg } }`. Rules run in order (required first) and stop
 * at the first failure; a rule whose value is empty is skipped, and an empty field passes every
 * rule unless it is required. Values may be `dx:` expressions.
 */

export const REQUIRED_MSG = 'is required';
export const NUMBER_MSG = "it's not a number.";
export const URL_MSG = "it's not url";
export const AJAX_MSG = 'Ajax validation failed';
const DATE_MSG = 'is not a date (YYYY-MM-DD)';
const DATE_TIME_MSG = 'is not a date and time (YYYY-MM-DDThh:mm:ss, a zone such as Z or +01:00 optional)';
const defaultRuleMessage = (rule: string) => `${rule} validate error`;
/** A custom rule list that is not an array of `{ script, errMsg }`. */
export const CUSTOM_RULE_SHAPE_MSG = '【Error】自定义验证规则应为对象数组，每项包含script,errMsg字段。';
/** A rule name no rule is registered under. */
export const unknownRuleMessage = (rule: string) => `不存在验证规则${rule}`;
/** Registering a rule under the name of the custom rule list. */
export const RESERVED_RULE_MSG = 'customRule 注册失败。 customRule为【自定义规则】专用规则名，请更换。';
/** What a field shows while a delayed rule waits. */
export const DEFAULT_DELAY_MSG = '异步验证中..';
const CUSTOM_RULE = 'customRule';

interface RuleCheckContext {
  signal?: AbortSignal;
  /** URL prefixes of the check services an ajax rule may ask (the server's FORM_CHECK_URLS); none: no ajax rule runs. */
  formCheckUrls: readonly string[];
}

export interface Rule {
  defaultErrMsg?: string;
  /** True when the value passes; rules that call the server answer a promise. */
  check(value: unknown, ruleValue: unknown, context: RuleCheckContext): boolean | Promise<boolean>;
}

/** Empty as the form library counts it: undefined, null, '', NaN, [], {}. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (typeof value === 'number') return !Number.isFinite(value);
  if (typeof value === 'boolean') return false;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return true;
}

const asNumber = (v: unknown): number | undefined => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
};
const numeric = (test: (v: number, r: number) => boolean) => ({
  check: (v: unknown, r: unknown) => {
    const value = asNumber(v);
    const bound = asNumber(r);
    return value === undefined || bound === undefined || test(value, bound);
  },
});
const sized = (size: (v: unknown) => number | undefined, test: (n: number, r: number) => boolean) => ({
  check: (v: unknown, r: unknown) => {
    const n = size(v);
    return n === undefined || test(n, Number(r));
  },
});
const textLength = (v: unknown) => (typeof v === 'string' ? [...v].length : undefined);
const itemCount = (v: unknown) => (Array.isArray(v) ? v.length : undefined);
const propertyCount = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).length : undefined);
const textTest = (re: RegExp) => ({ check: (v: unknown) => typeof v !== 'string' || re.test(v) });
const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** A pattern given as `^a+$` or as `/^a+$/i`, run in linear time (see safeRegExp). */
function patternOf(rule: unknown): LinearPattern {
  if (rule instanceof RegExp) return safeRegExp(rule.source, rule.flags);
  const text = String(rule);
  const literal = /^\/(.*)\/([gimsuy]*)$/s.exec(text);
  return literal ? safeRegExp(literal[1] ?? '', literal[2]) : safeRegExp(text);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^(https?|ftp):\/\/[^\s/$.?#][^\s]*$/i;
const TEL = /^1[3-9]\d{9}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

function isIpv6(v: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(v) || (v.match(/::/g) ?? []).length > 1) return false;
  let parts = v.split(':');
  const last = parts[parts.length - 1] ?? '';
  let groups = 8;
  if (last.includes('.')) {
    if (!IPV4.test(last)) return false;
    parts = parts.slice(0, -1);
    groups = 6;
  }
  if (v.includes('::')) {
    const filled = parts.filter((p) => p !== '');
    return filled.length < groups && filled.every((p) => /^[0-9a-f]{1,4}$/i.test(p));
  }
  return parts.length === groups && parts.every((p) => /^[0-9a-f]{1,4}$/i.test(p));
}

const readPath = (data: unknown, path: string): unknown =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .reduce<unknown>(
      (at, key) => (at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined),
      data,
    );

/**
 * Asks a check service the operator listed, with a GET that carries no token, no cookie and no
 * referrer, and follows no redirect: the answer (or its `resField`) must be truthy. A rule that
 * names anything else is not run, and says so (docs/decisions.md, "A form's ajax rule asks only
 * listed check services").
 */
async function ajaxCheck(value: unknown, rule: unknown, context: RuleCheckContext): Promise<boolean> {
  const allowed = formCheckOf(rule, context.formCheckUrls);
  if ('problem' in allowed) throw new Error(FORM_CHECK_MESSAGES.notRun(allowed.problem));
  const { check } = allowed;
  try {
    const res = await fetch(formCheckRequestUrl(check, value), {
      method: 'GET',
      credentials: 'omit',
      redirect: 'error',
      referrerPolicy: 'no-referrer',
      headers: { accept: 'application/json' },
      ...(context.signal ? { signal: context.signal } : {}),
    });
    if (!res.ok) return false;
    const answer: unknown = await res.json();
    return Boolean(check.resField ? readPath(answer, check.resField) : answer);
  } catch (error) {
    if (context.signal?.aborted) throw error;
    return false;
  }
}

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date written YYYY-MM-DD (format `date`): 2026-02-30 is not one. */
function isDateText(v: unknown): boolean {
  const m = typeof v === 'string' ? DATE_TEXT.exec(v) : null;
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

// As the server's check (ajv-formats' iso-date-time): seconds required, the zone optional.
const DATE_TIME_TEXT = /^(\d{4}-\d{2}-\d{2})[Tt ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?([Zz]|[+-]\d{2}(:?\d{2})?)?$/;

/** A date and time as RFC 3339 writes it (format `date-time`), on a calendar date; the zone may be left out, as the server's check allows (a file's author often wrote none). */
const isDateTimeText = (v: unknown): boolean => {
  const m = typeof v === 'string' ? DATE_TIME_TEXT.exec(v) : null;
  return m !== null && isDateText(m[1]) && Number.isFinite(Date.parse(String(v)));
};

const BUILT_IN: Record<string, Rule> = {
  required: { defaultErrMsg: REQUIRED_MSG, check: (v) => !isEmptyValue(v) },
  minimum: numeric((v, r) => v >= r),
  maximum: numeric((v, r) => v <= r),
  exclusiveMinimum: numeric((v, r) => v > r),
  exclusiveMaximum: numeric((v, r) => v < r),
  multipleOf: numeric((v, r) => r !== 0 && Math.abs(v / r - Math.round(v / r)) < 1e-9),
  minLength: sized(textLength, (n, r) => n >= r),
  maxLength: sized(textLength, (n, r) => n <= r),
  minItems: sized(itemCount, (n, r) => n >= r),
  maxItems: sized(itemCount, (n, r) => n <= r),
  minProperties: sized(propertyCount, (n, r) => n >= r),
  maxProperties: sized(propertyCount, (n, r) => n <= r),
  uniqueItems: {
    check: (v) => !Array.isArray(v) || new Set(v.map((item) => JSON.stringify(item))).size === v.length,
  },
  contains: { check: (v, r) => !Array.isArray(v) || v.some((item) => same(item, r)) },
  number: {
    defaultErrMsg: NUMBER_MSG,
    check: (v) => (typeof v === 'number' ? Number.isFinite(v) : typeof v === 'string' && NUMBER_TEXT.test(v)),
  },
  pattern: { check: (v, r) => typeof v !== 'string' || patternOf(r).test(v) },
  email: textTest(EMAIL),
  url: { defaultErrMsg: URL_MSG, ...textTest(URL_RE) },
  tel: { check: (v) => TEL.test(String(v)) },
  ipv4: textTest(IPV4),
  ipv6: { check: (v) => typeof v !== 'string' || isIpv6(v) },
  hostname: textTest(/^https?:\/\/(.*?)\//),
  dateTime: {
    check: (v) => {
      if (typeof v === 'number') return Number.isFinite(new Date(v).getTime());
      if (typeof v !== 'string') return false;
      return Number.isFinite(/^-?\d+$/.test(v) ? new Date(Number(v)).getTime() : Date.parse(v));
    },
  },
  date: { defaultErrMsg: DATE_MSG, check: isDateText },
  rfc3339DateTime: { defaultErrMsg: DATE_TIME_MSG, check: isDateTimeText },
  ajax: { defaultErrMsg: AJAX_MSG, check: ajaxCheck },
};

const registry: Record<string, Rule> = { ...BUILT_IN };

/** Adds rules by name; the name of the custom rule list is reserved. */
export function registerRules(rules: Record<string, Rule>): void {
  if (Object.hasOwn(rules, CUSTOM_RULE)) throw new Error(RESERVED_RULE_MSG);
  Object.assign(registry, rules);
}

interface RuleOptions {
  delay?: number;
  delayMsg?: string;
}

export interface ValidationOutcome {
  valid: boolean;
  message: string;
  /** The rule that failed. */
  rule?: string;
  /** Paths a passing custom rule asks to validate again. */
  linkItems?: string[];
}

export interface ValidateContext extends RuleCheckContext {
  scope: ExpressionScope;
  /** Messages by rule name, overriding the defaults (the form's `validationMsg`). */
  messages?: Record<string, string>;
  /** Called when a delayed rule starts waiting, with the message the field shows meanwhile. */
  onPending?: (message: string) => void;
}

const PASS: ValidationOutcome = { valid: true, message: '' };

interface CustomRuleItem {
  script: unknown;
  errMsg: string;
  linkItems?: string[];
}

function customRules(list: unknown, context: ValidateContext): ValidationOutcome {
  const shapeOk =
    Array.isArray(list) && list.every((i) => i && typeof i === 'object' && 'script' in i && typeof i.errMsg === 'string');
  if (!shapeOk) return { valid: false, message: CUSTOM_RULE_SHAPE_MSG, rule: CUSTOM_RULE };
  for (const item of list as CustomRuleItem[]) {
    let ok: unknown;
    try {
      ok = analyze(item.script, context.scope);
    } catch (error) {
      console.warn(`Custom rule ${String(item.script)}: ${(error as Error).message}`);
      ok = false;
    }
    if (!ok) return { valid: false, message: item.errMsg, rule: CUSTOM_RULE };
  }
  return { valid: true, message: '', linkItems: (list as CustomRuleItem[]).flatMap((i) => i.linkItems ?? []) };
}

interface Prepared {
  name: string;
  value: unknown;
  errMsg?: string;
  options: RuleOptions;
}

/** Splits `{ value, errMsg, options }` from a plain rule value and evaluates expressions. */
function prepare(name: string, raw: unknown, scope: ExpressionScope): Prepared {
  const wrapped = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'value' in raw;
  const spec = wrapped ? (raw as { value: unknown; errMsg?: string; options?: RuleOptions }) : { value: raw };
  return {
    name,
    value: analyze(spec.value, scope),
    ...(spec.errMsg ? { errMsg: spec.errMsg } : {}),
    options: (wrapped ? (raw as { options?: RuleOptions }).options : undefined) ?? {},
  };
}

const ruleIsOff = (value: unknown) => value === false || isEmptyValue(value);

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(true), ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });

function failure(p: Prepared, rule: Rule | undefined, context: ValidateContext): ValidationOutcome {
  const message = p.errMsg || context.messages?.[p.name] || rule?.defaultErrMsg || defaultRuleMessage(p.name);
  return { valid: false, message, rule: p.name };
}

/**
 * Validates a value against a field's rules: synchronously when no rule waits, else a promise. A
 * cancelled check (its signal aborted by a newer edit) answers null.
 */
export function validateValue(
  value: unknown,
  rules: Record<string, unknown> | undefined,
  context: ValidateContext,
): ValidationOutcome | Promise<ValidationOutcome | null> {
  const names = Object.keys(rules ?? {});
  if (names.length === 0) return PASS;
  const ordered = names.includes('required') ? ['required', ...names.filter((n) => n !== 'required')] : names;
  let required = false;
  try {
    required = !ruleIsOff(prepare('required', rules?.required, context.scope).value);
  } catch (error) {
    return { valid: false, message: (error as Error).message, rule: 'required' };
  }
  if (!required && isEmptyValue(value)) return PASS;
  return runFrom(0);

  function runFrom(start: number): ValidationOutcome | Promise<ValidationOutcome | null> {
    let linkItems: string[] = [];
    for (let i = start; i < ordered.length; i++) {
      const name = ordered[i] as string;
      const raw = rules?.[name];
      if (name === CUSTOM_RULE) {
        const outcome = customRules(raw, context);
        if (!outcome.valid) return outcome;
        linkItems = linkItems.concat(outcome.linkItems ?? []);
        continue;
      }
      const rule = Object.hasOwn(registry, name) ? registry[name] : undefined;
      if (!rule) return { valid: false, message: unknownRuleMessage(name), rule: name };
      let p: Prepared;
      try {
        p = prepare(name, raw, context.scope);
      } catch (error) {
        return { valid: false, message: (error as Error).message, rule: name };
      }
      if (ruleIsOff(p.value)) continue;
      if ((p.options.delay ?? 0) > 0) return runAsync(i, p, rule, linkItems, undefined);
      let ok: boolean | Promise<boolean>;
      try {
        ok = rule.check(value, p.value, context);
      } catch (error) {
        return { valid: false, message: (error as Error).message, rule: name };
      }
      if (ok instanceof Promise) return runAsync(i, p, rule, linkItems, ok);
      if (!ok) return failure(p, rule, context);
    }
    return linkItems.length > 0 ? { ...PASS, linkItems } : PASS;
  }

  async function runAsync(
    i: number,
    p: Prepared,
    rule: Rule,
    linkItems: string[],
    started: Promise<boolean> | undefined,
  ): Promise<ValidationOutcome | null> {
    const delay = p.options.delay ?? 0;
    if (delay > 0) {
      context.onPending?.(p.options.delayMsg || DEFAULT_DELAY_MSG);
      if (!(await wait(delay, context.signal))) return null;
    }
    let ok: boolean;
    try {
      ok = await (started ?? rule.check(value, p.value, context));
    } catch (error) {
      if (context.signal?.aborted) return null;
      return { valid: false, message: (error as Error).message, rule: p.name };
    }
    if (context.signal?.aborted) return null;
    if (!ok) return failure(p, rule, context);
    const rest = await runFrom(i + 1);
    if (rest?.valid && linkItems.length > 0) return { ...rest, linkItems: [...linkItems, ...(rest.linkItems ?? [])] };
    return rest;
  }
}
