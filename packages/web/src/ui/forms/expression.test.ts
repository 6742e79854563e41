import { describe, expect, it } from 'vitest';
import { analyze, ExpressionError, evaluate, expandBraces } from './expression.ts';

const refused = (text: string, names: Record<string, unknown> = {}) => {
  try {
    evaluate(text, names);
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return (error as Error).message;
  }
  throw new Error(`${text} was not refused`);
};

describe('form expressions', () => {
  it('reads the form value, constants, the field and array indexes', () => {
    const scope = { $root: { persons: [{ age: 3 }, { age: 20 }] }, $const: { adult: 18 }, $self: 'x', idxChain: [1] };
    expect(analyze('dx: {{$root.persons[i].age}} >= {{$const.adult}}', scope)).toBe(true);
    expect(analyze('dx: {{ $root.persons[0].age }} + 1', scope)).toBe(4);
    expect(analyze('dx: {{$self}} === "x" ? "yes" : "no"', scope)).toBe('yes');
    expect(analyze('plain value', scope)).toBe('plain value');
    expect(analyze(12, scope)).toBe(12);
    expect(expandBraces('{{$root.a[i].b[i]}}', [2, 5])).toBe('($root.a[2].b[5])');
  });

  it('methods of texts and lists, with arrow functions', () => {
    const names = { l: [1, 2, 3], s: 'Hello' };
    expect(evaluate('l.map(x => x * 2).filter(x => x > 2)', names)).toEqual([4, 6]);
    expect(evaluate('l.reduce((a, b) => a + b, 0)', names)).toBe(6);
    expect(evaluate('s.toLowerCase().startsWith("he") && l.includes(2)', names)).toBe(true);
    expect(evaluate('matches(s, "^h", "i")', names)).toBe(true);
  });

  it('refuses the walk to a constructor, in every spelling', () => {
    expect(refused('a.constructor', { a: {} })).toBe('Access to constructor is refused');
    expect(refused('a["constructor"]["constructor"]("return 1")()', { a: {} })).toBe('Access to constructor is refused');
    expect(refused('s.constructor', { s: 'x' })).toBe('Access to constructor is refused');
    expect(refused('l.map(x => x).constructor', { l: [] })).toBe('Access to constructor is refused');
    expect(refused('a["const" + "ructor"]', { a: {} })).toBe('Access to constructor is refused');
  });

  it('refuses prototype walks', () => {
    expect(refused('a.__proto__', { a: {} })).toBe('Access to __proto__ is refused');
    expect(refused('a["__pro" + "to__"].polluted', { a: {} })).toBe('Access to __proto__ is refused');
    expect(refused('f.prototype', { f: {} })).toBe('Access to prototype is refused');
    expect(refused('a.__defineGetter__', { a: {} })).toBe('Access to __defineGetter__ is refused');
  });

  it('inherited members read as undefined and no function but the listed methods may be called', () => {
    expect(evaluate('a.toString', { a: {} })).toBeUndefined();
    expect(evaluate('a.hasOwnProperty', { a: {} })).toBeUndefined();
    expect(refused('a.toString()', { a: {} })).toBe('Calling toString is not allowed');
    expect(refused('s.constructor.fromCharCode(65)', { s: '' })).toBe('Access to constructor is refused');
    expect(refused('l.push(1)', { l: [] })).toBe('Calling push is not allowed');
    expect(refused('alert(1)')).toBe('Unknown name: alert');
    expect(refused('window')).toBe('Unknown name: window');
    expect(refused('globalThis.fetch')).toBe('Unknown name: globalThis');
    expect(refused('this.x')).toBe('this is not available in expressions');
    expect(refused('x => x')).toBe('An expression must give a value, not a function');
  });

  it('refuses assignments and other statements the parser might accept', () => {
    expect(() => evaluate('a = 1', { a: 0 })).toThrow(ExpressionError);
    expect(() => evaluate('a.b = 1', { a: {} })).toThrow(ExpressionError);
    expect(() => evaluate('new Function("x")')).toThrow(ExpressionError);
  });

  it('refuses a million-step loop by its budget', () => {
    const l = Array.from({ length: 1000 }, (_, i) => i);
    expect(refused('l.map(a => l.map(b => a + b))', { l })).toBe('Expression refused: more than 100000 steps');
    expect(refused('l.reduce((acc, a) => acc + l.filter(b => b > a).length, 0)', { l })).toMatch(/^Expression refused/);
  });

  it('refuses texts that grow without bound', () => {
    expect(refused('"x".padStart(200000, "y")')).toMatch(/^Expression refused: a text longer than/);
    const big = 'x'.repeat(60_000);
    expect(refused('s + s', { s: big })).toMatch(/^Expression refused: a text longer than/);
  });

  it('an invalid expression is an ExpressionError, not a crash', () => {
    expect(refused('1 +')).toMatch(/^Invalid expression/);
  });
});
