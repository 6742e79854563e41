// What every part of the runtime library shares. The library runs inside the isolate, at the top
// of every program: these are captured when the program loads, before any component code runs, so
// a component that replaces them cannot change how the run reads its payload or writes its answer.
import type { Answer } from './types.d.ts';

export const parseJson = JSON.parse;
export const toJson = JSON.stringify;
export const isArray = Array.isArray;
export const assign = Object.assign;
export const freeze = Object.freeze;
export const keysOf = Object.keys;
export const defineProperty = Object.defineProperty;
export const hasOwn = Object.hasOwn;
export const FunctionCtor = Function;
export const bindFn = FunctionCtor.prototype.bind;
export const applyFn = Reflect.apply;
export const floor = Math.floor;
export const round = Math.round;
export const max = Math.max;
export const ceil = Math.ceil;
export const DateCtor = Date;
export const ErrorCtor = Error;
export const StringCtor = String;
export const Uint8ArrayCtor = Uint8Array;

/** A failure the run reports as it is: its message already names the component and port. */
export class RunError extends ErrorCtor {
  declare kind: Answer['failure'];
  /** `kind` is 'output' when the answer itself is the problem (too large, not JSON). */
  constructor(message: string, kind: Answer['failure'] = 'code') {
    super(message);
    this.name = 'RunError';
    this.kind = kind;
  }
}

export function errorText(error: unknown): string {
  if (error instanceof RunError) return error.message;
  if (error instanceof ErrorCtor) return `${error.name}: ${error.message}`;
  try {
    return `Thrown: ${typeof error === 'string' ? error : toJson(error)}`;
  } catch {
    return 'Thrown: a value that cannot be shown';
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !isArray(value);
}

/** Sets an own property, whatever its name (`__proto__` included). */
export function setOwn(target: object, key: string, value: unknown): void {
  defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
