import { parentPort } from 'node:worker_threads';
import { type CsvPartRequest, type ParseRequest, parseCsvPart, parseFile, pooled } from './parse-file.ts';

// One request per worker: the pool starts a fresh worker for every file (or slice of a large CSV
// file) and ends it after. The rows go back as bytes whose buffer is handed over, not as text
// copied to the server's thread.
parentPort?.once('message', (request: ParseRequest | CsvPartRequest) => {
  const answer = request.kind === 'csv-part' ? parseCsvPart(request) : pooled(parseFile(request));
  const buffer = answer.rowsBytes?.buffer;
  parentPort?.postMessage(answer, buffer instanceof ArrayBuffer ? [buffer] : []);
});
