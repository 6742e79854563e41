// The `ajax` rule of the dynamic forms (docs/product.md §18.5) may only ask a check service the
// operator lists in FORM_CHECK_URLS, and only with a GET: a data model is written by one user and
// drawn by another, so its rule must never act with its viewer's rights (docs/decisions.md,
// "A form's ajax rule asks only listed check services"). The server refuses to save a data model
// whose rule breaks this; the browser does not run such a rule.

/** The setting that lists the check services (comma-separated URL prefixes). */
export const FORM_CHECK_SETTING = 'FORM_CHECK_URLS';

/** Why an ajax rule is refused, and what the form says instead of running it. */
export const FORM_CHECK_MESSAGES = {
  notFixed: 'An ajax rule must name its check service as a fixed remoteUrl',
  notGet: (method: string) => `An ajax rule is sent only as GET, not ${method}`,
  notListed: (url: string) => `An ajax rule may only ask a check service listed in ${FORM_CHECK_SETTING}: ${url} is not one`,
  atPath: (path: string, problem: string) => `The ajax rule at ${path}: ${problem}`,
  notRun: (problem: string) => `Ajax validation not run: ${problem}`,
} as const;

/** What is wrong with one entry of the setting, or null: an http(s) URL, no query, ending with '/'. */
export function formCheckPrefixProblem(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return `${entry} is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${entry} is not an http or https URL`;
  if (url.username || url.password || url.search || url.hash) return `${entry} must not hold credentials, a query or a fragment`;
  if (!url.pathname.endsWith('/')) return `${entry} must end with / (a prefix of the check service's URLs)`;
  return null;
}

/** The entries of a comma-separated setting, trimmed, empty ones left out. */
export const settingEntries = (setting: string | undefined): string[] =>
  (setting ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The entries of the setting as the browser compares them (normalised URLs). */
export function parseFormCheckUrls(setting: string | undefined): string[] {
  return settingEntries(setting).map((entry) => new URL(entry).href);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A rule value the form library skips (docs/product.md §18.5: each rule is skipped when its value is empty). */
const isOff = (v: unknown) =>
  v === undefined || v === null || v === false || v === '' || (isObject(v) && Object.keys(v).length === 0);

/** The URL an ajax rule's `remoteUrl` asks, if it is under a listed prefix. */
function listedUrl(remoteUrl: unknown, allowed: readonly string[]): URL | null {
  if (typeof remoteUrl !== 'string') return null;
  let url: URL;
  try {
    url = new URL(remoteUrl);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  return allowed.some((prefix) => url.href.startsWith(prefix)) ? url : null;
}

/**
 * What is wrong with the configuration of an ajax rule (`{ remoteUrl, method, … }`, after the
 * form library's `{ value, errMsg, options }` wrapper is taken off), or null when it may run.
 */
function ajaxConfigProblem(config: unknown, allowed: readonly string[]): string | null {
  if (isOff(config)) return null;
  if (!isObject(config) || typeof config.remoteUrl !== 'string') return FORM_CHECK_MESSAGES.notFixed;
  const method = config.method ?? 'get';
  if (typeof method !== 'string' || method.toLowerCase() !== 'get') return FORM_CHECK_MESSAGES.notGet(String(method));
  if (!listedUrl(config.remoteUrl, allowed)) return FORM_CHECK_MESSAGES.notListed(config.remoteUrl);
  return null;
}

/** The configuration of an ajax rule as stored: the wrapper's `value`, or the rule itself. */
const ajaxConfigOf = (rule: unknown): unknown => (isObject(rule) && 'value' in rule ? rule.value : rule);

/** An ajax rule that may run: its check service's URL and how to ask it. */
interface FormCheck {
  url: string;
  paramName: string;
  otherParams: Record<string, unknown>;
  resField: string | undefined;
}

/** The check an ajax rule's configuration asks for, or why it may not run. */
export function formCheckOf(config: unknown, allowed: readonly string[]): { check: FormCheck } | { problem: string } {
  const problem = isOff(config) ? FORM_CHECK_MESSAGES.notFixed : ajaxConfigProblem(config, allowed);
  if (problem || !isObject(config) || typeof config.remoteUrl !== 'string')
    return { problem: problem ?? FORM_CHECK_MESSAGES.notFixed };
  const { paramName, otherParams, resField } = config;
  return {
    check: {
      url: config.remoteUrl,
      paramName: typeof paramName === 'string' && paramName ? paramName : 'name',
      otherParams: isObject(otherParams) ? otherParams : {},
      resField: typeof resField === 'string' && resField ? resField : undefined,
    },
  };
}

/** The URL a check asks for a value: its parameters in the query (objects as JSON). */
export function formCheckRequestUrl(check: FormCheck, value: unknown): URL {
  const url = new URL(check.url);
  const params: Record<string, unknown> = { [check.paramName]: value, ...check.otherParams };
  for (const [key, v] of Object.entries(params)) {
    url.searchParams.set(key, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  }
  return url;
}

/** The first ajax rule of a data model that may not run: where (dotted, from `jsonSchema`) and why. */
export function ajaxRuleIssue(jsonSchema: unknown, allowed: readonly string[]): { path: string; message: string } | null {
  // Every object below the data model is looked at, wherever a field schema may sit (properties,
  // items, definitions, combiners …): a rule the browser could reach must be seen here.
  const stack: [string, unknown][] = [['', jsonSchema]];
  while (stack.length > 0) {
    const [at, v] = stack.pop() as [string, unknown];
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([at ? `${at}.${i}` : String(i), v[i]]);
      continue;
    }
    if (!isObject(v)) continue;
    if (isObject(v.rules) && Object.hasOwn(v.rules, 'ajax')) {
      const problem = ajaxConfigProblem(ajaxConfigOf(v.rules.ajax), allowed);
      const path = at ? `${at}.rules.ajax` : 'rules.ajax';
      if (problem) return { path, message: FORM_CHECK_MESSAGES.atPath(path, problem) };
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push([at ? `${at}.${key}` : key, v[key]]);
    }
  }
  return null;
}
