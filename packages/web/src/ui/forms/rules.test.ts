import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, fakeApi, ok, signIn } from '../../../test/fake-api.ts';
import {
  AJAX_MSG,
  CUSTOM_RULE_SHAPE_MSG,
  DEFAULT_DELAY_MSG,
  NUMBER_MSG,
  REQUIRED_MSG,
  RESERVED_RULE_MSG,
  registerRules,
  URL_MSG,
  unknownRuleMessage,
  type ValidateContext,
  type ValidationOutcome,
  validateValue,
} from './rules.ts';

const CHECKS = 'https://checks.example.test/names/';
const ctx = (over: Partial<ValidateContext> = {}): ValidateContext => ({
  scope: { $root: {}, $const: {} },
  formCheckUrls: [],
  ...over,
});
const check = (value: unknown, rules: Record<string, unknown>, over: Partial<ValidateContext> = {}) =>
  validateValue(value, rules, ctx(over)) as ValidationOutcome;
const message = (value: unknown, rules: Record<string, unknown>) => check(value, rules).message;

describe('dynamic form rules', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('required: "is required" for empty texts, lists, objects and missing values', () => {
    for (const empty of ['', [], {}, undefined, null, Number.NaN]) expect(message(empty, { required: true })).toBe(REQUIRED_MSG);
    expect(REQUIRED_MSG).toBe('is required');
    expect(check('x', { required: true }).valid).toBe(true);
    expect(check(false, { required: true }).valid).toBe(true);
  });

  it('required as an expression of the form value', () => {
    const rules = { required: 'dx: {{$root.isMaster}} === false' };
    expect(check('', rules, { scope: { $root: { isMaster: false } } }).message).toBe('is required');
    expect(check('', rules, { scope: { $root: { isMaster: true } } }).valid).toBe(true);
  });

  it('number bounds with the default message', () => {
    expect(message(1, { minimum: 2 })).toBe('minimum validate error');
    expect(message(3, { maximum: 2 })).toBe('maximum validate error');
    expect(message(2, { exclusiveMinimum: 2 })).toBe('exclusiveMinimum validate error');
    expect(message(2, { exclusiveMaximum: 2 })).toBe('exclusiveMaximum validate error');
    expect(message(7, { multipleOf: 3 })).toBe('multipleOf validate error');
    expect(check(0.3, { multipleOf: 0.1 }).valid).toBe(true);
    expect(check(2, { minimum: 2, maximum: 2, multipleOf: 2 }).valid).toBe(true);
    expect(message(-1, { minimum: 0 })).toBe('minimum validate error');
  });

  it('string, array and object bounds', () => {
    expect(message('ab', { minLength: 3 })).toBe('minLength validate error');
    expect(message('abcd', { maxLength: 3 })).toBe('maxLength validate error');
    expect(message([1], { minItems: 2 })).toBe('minItems validate error');
    expect(message([1, 2, 3], { maxItems: 2 })).toBe('maxItems validate error');
    expect(message([1, 1], { uniqueItems: true })).toBe('uniqueItems validate error');
    expect(message([1, 2], { contains: 3 })).toBe('contains validate error');
    expect(check([{ a: 1 }], { contains: { a: 1 } }).valid).toBe(true);
    expect(message({ a: 1 }, { minProperties: 2 })).toBe('minProperties validate error');
    expect(message({ a: 1, b: 2 }, { maxProperties: 1 })).toBe('maxProperties validate error');
  });

  it('number: "it\'s not a number." unless a finite number or a numeric text', () => {
    expect(NUMBER_MSG).toBe("it's not a number.");
    for (const bad of ['1e3', '1.', 'abc', '--1', '1,5']) expect(message(bad, { number: true })).toBe(NUMBER_MSG);
    for (const good of ['-12.5', '3', 4.25, -1]) expect(check(good, { number: true }).valid).toBe(true);
  });

  it('pattern, as text or as /literal/flags', () => {
    expect(message('abc', { pattern: '^\\d+$' })).toBe('pattern validate error');
    expect(check('ABC', { pattern: '/^abc$/i' }).valid).toBe(true);
    expect(message('x', { pattern: '(' })).toBe('Invalid regular expression: (');
  });

  it('pattern in linear time: ^(a+)+$ on 41 characters answers at once, and a backreference is refused', () => {
    // A backtracking engine held the tab for minutes on this row.
    const started = performance.now();
    expect(message(`${'a'.repeat(40)}!`, { pattern: '^(a+)+$' })).toBe('pattern validate error');
    expect(check('a'.repeat(41), { pattern: '^(a+)+$' }).valid).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
    expect(message('aa', { pattern: '^(a)\\1$' })).toBe('Invalid regular expression: ^(a)\\1$');
  });

  it('date and rfc3339DateTime take real calendar dates only', () => {
    expect(check('2024-02-29', { date: true }).valid).toBe(true);
    expect(message('2023-02-29', { date: true })).toBe('is not a date (YYYY-MM-DD)');
    expect(message('29/02/2024', { date: true })).toBe('is not a date (YYYY-MM-DD)');
    expect(check('2024-02-29T23:59:59+01:00', { rfc3339DateTime: true }).valid).toBe(true);
    expect(check('2026-03-01T14:30:15', { rfc3339DateTime: true }).valid).toBe(true);
    expect(check('2026-03-01T14:30', { rfc3339DateTime: true }).valid).toBe(false);
    expect(check('2026-03-01T25:00:00', { rfc3339DateTime: true }).valid).toBe(false);
    expect(message('2024-02-30T10:00:00Z', { rfc3339DateTime: true })).toBe(
      'is not a date and time (YYYY-MM-DDThh:mm:ss, a zone such as Z or +01:00 optional)',
    );
    expect(message('2024-02-28', { rfc3339DateTime: true })).toBe(
      'is not a date and time (YYYY-MM-DDThh:mm:ss, a zone such as Z or +01:00 optional)',
    );
  });

  it('email, url ("it\'s not url"), tel, ipv4, ipv6, hostname, dateTime', () => {
    expect(message('a@b', { email: true })).toBe('email validate error');
    expect(check('a@b.io', { email: true }).valid).toBe(true);
    expect(URL_MSG).toBe("it's not url");
    expect(message('example.com', { url: true })).toBe(URL_MSG);
    expect(check('https://example.com/a?b=1', { url: true }).valid).toBe(true);
    expect(message('12345678901', { tel: true })).toBe('tel validate error');
    expect(check('13812345678', { tel: true }).valid).toBe(true);
    expect(message('256.1.1.1', { ipv4: true })).toBe('ipv4 validate error');
    expect(check('192.168.0.1', { ipv4: true }).valid).toBe(true);
    expect(message('1::2::3', { ipv6: true })).toBe('ipv6 validate error');
    expect(check('2001:db8::1', { ipv6: true }).valid).toBe(true);
    expect(check('::ffff:192.168.0.1', { ipv6: true }).valid).toBe(true);
    expect(message('https://example.com', { hostname: true })).toBe('hostname validate error');
    expect(check('https://example.com/', { hostname: true }).valid).toBe(true);
    expect(message('not a date', { dateTime: true })).toBe('dateTime validate error');
    expect(check(1_700_000_000_000, { dateTime: true }).valid).toBe(true);
    expect(check('1700000000000', { dateTime: true }).valid).toBe(true);
  });

  it('a rule of its own message, and the form-wide messages by rule', () => {
    expect(message('', { required: { value: true, errMsg: 'Name please' } })).toBe('Name please');
    expect(check('ab', { minLength: 3 }, { messages: { minLength: 'Too short' } }).message).toBe('Too short');
  });

  it('rules are skipped when their value is empty, and an empty field passes unless required', () => {
    expect(check('abc', { pattern: '', minLength: undefined, email: false }).valid).toBe(true);
    expect(check('', { email: true, minLength: 3 }).valid).toBe(true);
    expect(check('', { required: false, minLength: 3 }).valid).toBe(true);
  });

  it('custom rules: scripts over the form value, each with its message, and a wrong list', () => {
    const rules = {
      customRule: [
        { script: 'dx: {{$root.a}} > 1', errMsg: 'a must be over 1' },
        { script: 'dx: {{$self}} !== "x"', errMsg: 'not x' },
      ],
    };
    expect(check('y', rules, { scope: { $root: { a: 1 }, $self: 'y' } }).message).toBe('a must be over 1');
    expect(check('x', rules, { scope: { $root: { a: 2 }, $self: 'x' } }).message).toBe('not x');
    expect(check('y', rules, { scope: { $root: { a: 2 }, $self: 'y' } }).valid).toBe(true);
    expect(CUSTOM_RULE_SHAPE_MSG).toBe('【Error】自定义验证规则应为对象数组，每项包含script,errMsg字段。');
    expect(message('y', { customRule: { script: 'dx: true' } })).toBe(CUSTOM_RULE_SHAPE_MSG);
    expect(message('y', { customRule: [{ script: 'dx: true' }] })).toBe(CUSTOM_RULE_SHAPE_MSG);
  });

  it('an unknown rule, and the reserved name of the custom rule list', () => {
    expect(message('y', { noSuchRule: true })).toBe('不存在验证规则noSuchRule');
    expect(unknownRuleMessage('x')).toBe('不存在验证规则x');
    expect(() => registerRules({ customRule: { check: () => true } })).toThrow(RESERVED_RULE_MSG);
    expect(RESERVED_RULE_MSG).toBe('customRule 注册失败。 customRule为【自定义规则】专用规则名，请更换。');
  });

  it('a registered rule, synchronous or answering a promise', async () => {
    registerRules({ even: { check: (v) => Number(v) % 2 === 0 }, later: { check: async (v) => v === 'ok' } });
    expect(message(3, { even: true })).toBe('even validate error');
    expect(await validateValue('no', { later: true }, ctx())).toMatchObject({ valid: false, message: 'later validate error' });
  });

  it('ajax: asks a listed check service with a GET (paramName, otherParams, resField), never with the token', async () => {
    signIn();
    const api = fakeApi({
      'GET /names/free': (call) => ok({ free: new URLSearchParams(call.search).get('name') !== 'taken' }),
      'GET /names/broken': () => envelope(50000, 'boom', null, 500),
    });
    const listed = ctx({ formCheckUrls: [CHECKS] });
    const free = { ajax: { value: { remoteUrl: `${CHECKS}free`, resField: 'data.free', otherParams: { kind: 'pipeline' } } } };
    expect(await validateValue('taken', free, listed)).toMatchObject({ valid: false, message: AJAX_MSG });
    expect(AJAX_MSG).toBe('Ajax validation failed');
    expect(await validateValue('new', free, listed)).toMatchObject({ valid: true });
    expect(await validateValue('x', { ajax: { value: { remoteUrl: `${CHECKS}broken` } } }, listed)).toMatchObject({
      valid: false,
      message: AJAX_MSG,
    });
    expect(api.calls.map((c) => [c.method, c.href])).toEqual([
      ['GET', `${CHECKS}free?name=taken&kind=pipeline`],
      ['GET', `${CHECKS}free?name=new&kind=pipeline`],
      ['GET', `${CHECKS}broken?name=x`],
    ]);
    for (const call of api.calls) {
      expect(call.headers['x-token']).toBeUndefined();
      expect(call.credentials).toBe('omit');
    }
  });

  it('ajax: a rule naming the API, another method or an unlisted service is not run, and says so', async () => {
    signIn();
    const api = fakeApi({ 'POST /users/create': () => ok({ _id: 'mallory' }), 'GET /users': () => ok([]) });
    const listed = ctx({ formCheckUrls: [CHECKS] });
    const escalating = {
      ajax: {
        value: { remoteUrl: '/users/create', method: 'post', paramName: 'userName', otherParams: { roles: ['super-admin'] } },
      },
    };
    expect(await validateValue('mallory', escalating, listed)).toEqual({
      valid: false,
      message: 'Ajax validation not run: An ajax rule is sent only as GET, not post',
      rule: 'ajax',
    });
    const notListed = (url: string) =>
      `Ajax validation not run: An ajax rule may only ask a check service listed in FORM_CHECK_URLS: ${url} is not one`;
    for (const remoteUrl of [
      '/users',
      'http://localhost/gdb-importer/v1/users',
      `${CHECKS}../users`,
      'https://checks.example.test.evil.test/names/',
    ]) {
      expect(await validateValue('mallory', { ajax: { remoteUrl } }, listed)).toMatchObject({ message: notListed(remoteUrl) });
    }
    expect(await validateValue('mallory', { ajax: { remoteUrl: `${CHECKS}free` } }, ctx())).toMatchObject({
      message: notListed(`${CHECKS}free`),
    });
    expect(api.calls).toEqual([]);
  });

  it('a delayed rule shows its waiting message, then its result; a newer edit cancels it', async () => {
    vi.useFakeTimers();
    expect(DEFAULT_DELAY_MSG).toBe('异步验证中..');
    registerRules({ slowOk: { check: async (v) => v === 'ok' } });
    const pending: string[] = [];
    const first = new AbortController();
    const rules = { slowOk: { value: true, options: { delay: 300 } } };
    const a = validateValue('ko', rules, ctx({ signal: first.signal, onPending: (m) => pending.push(m) }));
    expect(pending).toEqual(['异步验证中..']);
    first.abort();
    const b = validateValue(
      'ko',
      { slowOk: { value: true, options: { delay: 300, delayMsg: 'Checking…' } } },
      ctx({ onPending: (m) => pending.push(m) }),
    );
    expect(pending).toEqual(['异步验证中..', 'Checking…']);
    await vi.advanceTimersByTimeAsync(300);
    expect(await a).toBeNull();
    expect(await b).toMatchObject({ valid: false, message: 'slowOk validate error' });
  });

  it('rules run with required first and stop at the first failure', () => {
    expect(check('', { minLength: 3, required: true }).message).toBe('is required');
    expect(check('ab', { minLength: 3, pattern: '^\\d+$' }).message).toBe('minLength validate error');
  });
});
