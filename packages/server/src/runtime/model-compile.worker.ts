import { parentPort } from 'node:worker_threads';
import { type CompileRequest, compileModel } from './model-compile.ts';

// One data model at a time: the compiler posts a request, waits for its answer, then posts the
// next one or ends the worker (at its time limit, or when it is not kept).
parentPort?.on('message', (request: CompileRequest) => parentPort?.postMessage(compileModel(request)));
