import { type LinearPattern, linearPattern } from '@gdb/shared/schemas/linear-pattern';

/**
 * ajv's `code.regExp`: the patterns of data models run by RE2 (re2js), in linear time, wherever the
 * server checks them. Standalone validator code (the sandbox's) loads re2js by `require`; ajv only
 * ever passes the `u` flag, which RE2 needs not.
 */
export const linearRegExp = Object.assign((source: string, flags: string): LinearPattern => linearPattern(source, flags), {
  code: '(function (source) { return require("re2js").RE2JS.compile(source); })',
});
