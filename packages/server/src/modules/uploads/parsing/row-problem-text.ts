import type { ErrorObject } from 'ajv';

/** Longest value a problem quotes; a longer one is cut and ends with '…'. */
const QUOTED_CHARS = 40;

/** The value found, as a problem quotes it: texts in quotes and shortened, no value said so. */
export function quoted(value: unknown): string {
  if (value === null || value === undefined) return 'no value';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const short = text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS - 1)}…` : text;
  return typeof value === 'string' ? `"${short}"` : short;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a text',
  boolean: 'true or false',
  object: 'a group of fields',
  array: 'a list',
  null: 'empty',
};

const FORMAT_WORDS: Record<string, string> = {
  email: 'an e-mail address',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (YYYY-MM-DDTHH:mm:ss, a zone such as Z or +01:00 optional)',
  time: 'a time (HH:mm:ss, a zone optional)',
  uri: 'a web address',
  url: 'a web address',
  uuid: 'an id (UUID)',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  hostname: 'a host name',
};

const param = (e: ErrorObject, key: string): string => String((e.params as Record<string, unknown>)[key]);

/** Types in words, 'a text or empty' for ['string', 'null']. */
function typeWords(type: string): string {
  return type
    .split(',')
    .map((t) => TYPE_WORDS[t] ?? t)
    .join(' or ');
}

/** What was expected, in plain words, after the value found; undefined for a keyword without its own words. */
function expectation(e: ErrorObject): string | undefined {
  switch (e.keyword) {
    case 'type':
      return `is not ${typeWords(param(e, 'type'))}`;
    case 'format':
      return `is not ${FORMAT_WORDS[param(e, 'format')] ?? `in the format ${param(e, 'format')}`}`;
    case 'pattern':
      return `does not have the expected form (pattern ${param(e, 'pattern')})`;
    case 'enum':
      return `is not one of ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(quoted).join(', ')}`;
    case 'const':
      return `is not ${quoted((e.params as { allowedValue?: unknown }).allowedValue)}`;
    case 'minLength':
      return `is shorter than ${param(e, 'limit')} characters`;
    case 'maxLength':
      return `is longer than ${param(e, 'limit')} characters`;
    case 'minimum':
      return `is less than ${param(e, 'limit')}`;
    case 'maximum':
      return `is more than ${param(e, 'limit')}`;
    case 'exclusiveMinimum':
      return `is not more than ${param(e, 'limit')}`;
    case 'exclusiveMaximum':
      return `is not less than ${param(e, 'limit')}`;
    default:
      return undefined;
  }
}

/**
 * One problem of a row against its data model, in words a person can act on: the field, the
 * value found (shortened) and what was expected — `email: "bob@" is not an e-mail address`.
 * Needs the errors of an ajv compiled with `verbose: true` (the value found is `e.data`).
 */
export function rowProblemText(e: ErrorObject): string {
  if (e.keyword === 'required') return `${param(e, 'missingProperty')}: no value, and one is required`;
  if (e.keyword === 'additionalProperties') return `${param(e, 'additionalProperty')}: this field is not in the data model`;
  const field = e.instancePath ? e.instancePath.slice(1).replaceAll('/', '.') : 'the row';
  const words = expectation(e);
  return `${field}: ${quoted(e.data)} ${words ?? e.message ?? 'is invalid'}`;
}
