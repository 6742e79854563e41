import { describe, expect, it } from 'vitest';
import { ajaxRuleIssue, formCheckOf, formCheckPrefixProblem, formCheckRequestUrl, parseFormCheckUrls } from './form-checks.ts';

const CHECKS = parseFormCheckUrls('https://checks.example.test/names/');

describe('form check services', () => {
  it('takes prefixes of http(s) URLs ending with /, normalised as the browser compares them', () => {
    expect(parseFormCheckUrls(' https://CHECKS.example.test/a/ ,http://127.0.0.1:8080/ ')).toEqual([
      'https://checks.example.test/a/',
      'http://127.0.0.1:8080/',
    ]);
    expect(parseFormCheckUrls(undefined)).toEqual([]);
    expect(formCheckPrefixProblem('https://checks.example.test')).toBeNull();
    expect(formCheckPrefixProblem('https://checks.example.test/names?x=1')).toBe(
      'https://checks.example.test/names?x=1 must not hold credentials, a query or a fragment',
    );
    expect(formCheckPrefixProblem('ftp://checks.example.test/')).toBe('ftp://checks.example.test/ is not an http or https URL');
  });

  it('lets a rule run only as a GET under a listed prefix, whatever the spelling of its address', () => {
    const allowed = (remoteUrl: unknown, method?: unknown) => 'check' in formCheckOf({ remoteUrl, method }, CHECKS);
    expect(allowed('https://checks.example.test/names/free')).toBe(true);
    expect(allowed('https://checks.example.test/names/free', 'GET')).toBe(true);
    expect(allowed('HTTPS://Checks.Example.Test/names/free')).toBe(true);
    for (const url of [
      '/names/free',
      'https://checks.example.test/names/../users',
      'https://checks.example.test/names%2f..%2f../users',
      'https://checks.example.test.evil.test/names/free',
      'https://x@checks.example.test/names/free',
      'https://checks.example.test:444/names/free',
      'javascript:alert(1)//checks.example.test/names/',
      'dx: {{$root.url}}',
    ]) {
      expect([url, allowed(url)]).toEqual([url, false]);
    }
    expect(allowed('https://checks.example.test/names/free', 'post')).toBe(false);
    expect(allowed(42)).toBe(false);
    expect('check' in formCheckOf({ remoteUrl: 'https://checks.example.test/names/free' }, [])).toBe(false);
  });

  it('asks with the value and the other parameters in the query', () => {
    const made = formCheckOf(
      { remoteUrl: 'https://checks.example.test/names/free?lang=fr', paramName: 'code', otherParams: { kind: { a: 1 } } },
      CHECKS,
    );
    if (!('check' in made)) throw new Error(made.problem);
    expect(formCheckRequestUrl(made.check, 'FR 42').href).toBe(
      'https://checks.example.test/names/free?lang=fr&code=FR+42&kind=%7B%22a%22%3A1%7D',
    );
  });

  it('finds a refused rule wherever a field sits, with its path', () => {
    const nested = {
      type: 'object',
      properties: { rows: { type: 'array', items: { anyOf: [{ rules: { ajax: { remoteUrl: '/users' } } }] } } },
    };
    expect(ajaxRuleIssue(nested, CHECKS)?.path).toBe('properties.rows.items.anyOf.0.rules.ajax');
    expect(ajaxRuleIssue({ type: 'object', properties: { a: { rules: { ajax: '' } } } }, [])).toBeNull();
  });
});
