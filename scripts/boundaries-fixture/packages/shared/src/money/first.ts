// Breaks no-cycle with second.ts, through a type-only import.
import type { Second } from './second.ts';

export type First = { next?: Second };
