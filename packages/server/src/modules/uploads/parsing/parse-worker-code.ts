import path from 'node:path';
import { bundledWorkerCode } from '../../../platform/worker-code.ts';

const ENTRY = path.join(import.meta.dirname, 'parse.worker.ts');

/** The parse worker's code as one CommonJS script, its modules and parsers bundled together (see platform/worker-code.ts). */
export function parseWorkerCode(): Promise<string> {
  return bundledWorkerCode(ENTRY, 'parse-worker.cjs');
}
