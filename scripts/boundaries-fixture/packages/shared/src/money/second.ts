import type { First } from './first.ts';

export type Second = { previous?: First };
