import { parentPort } from 'node:worker_threads';
import { type CsvPartRequest, parseCsvPart } from './csv-parts.ts';
import { type ParseRequest, parseFile, pooled } from './parse-file.ts';

// One request at a time: the pool gives a worker a file (or a slice of a large CSV file), waits for
// its answer, then gives it the next one or ends it. The rows go back as bytes whose buffer is
// handed over, not as text copied to the server's thread.
parentPort?.on('message', (request: ParseRequest | CsvPartRequest) => {
  const answer = request.kind === 'csv-part' ? parseCsvPart(request) : pooled(parseFile(request));
  const buffer = answer.rowsBytes?.buffer;
  parentPort?.postMessage(answer, buffer instanceof ArrayBuffer ? [buffer] : []);
});
