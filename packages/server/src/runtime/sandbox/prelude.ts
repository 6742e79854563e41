// The runtime library of a component program, bundled for the isolate into one script
// (runtime/prelude-code.ts; scripts/build-server.mjs at build) that the compiler puts at the top
// of every program (codegen.ts). It runs inside an isolated-vm isolate, never in the server: it
// turns the component definitions below it into runnable functions (docs/product.md §16.2) and
// answers the run as JSON text. No Node API reaches it: the bundle is built for a neutral platform.
import { freeze } from './base.ts';
import { component, models, modules, sdkFunction } from './definitions.ts';
import { entry, sdkEntry } from './entry.ts';

/** What the program calls the library by (`__gdb`). */
export const gdb = freeze({ component, sdkFunction, modules, models, entry, sdkEntry });
