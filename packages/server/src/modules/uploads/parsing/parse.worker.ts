import { parentPort } from 'node:worker_threads';
import { type ParseRequest, parseFile } from './parse-file.ts';

// One request per worker: the pool starts a fresh worker for every file and ends it after.
parentPort?.once('message', (request: ParseRequest) => {
  parentPort?.postMessage(parseFile(request));
});
