import { z } from 'zod';

// zod compiles object parsers with `new Function` when it may; the app's CSP forbids eval, and
// even zod's probe for it is reported as a violation. This module is imported before any schema.
z.config({ jitless: true });
