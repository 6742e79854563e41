import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { type CsvPartRequest, parseCsvPart } from './csv-parts.ts';
import { checksCompiled } from './kept-checks.ts';
import { type ParseRequest, parseFile, pooled } from './parse-file.ts';
import { type HeadRequest, readHead } from './read-head.ts';

// One request at a time: the pool gives a worker a file (or a slice of a large CSV file), waits for
// its answer, then gives it the next one or ends it. The rows go back as bytes whose buffer is
// handed over, not as text copied to the server's thread.
// Parsing yields the cores to the server's requests: on Linux a priority set here is this thread's
// alone (elsewhere it would be the whole process's, so it is left as it is).
if (process.platform === 'linux') {
  try {
    os.setPriority(os.constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not permitted here: the thread keeps the process's priority.
  }
}
// Each answer says how many data model checks it compiled (not taken from those kept).
parentPort?.on('message', (request: ParseRequest | CsvPartRequest | HeadRequest) => {
  if (request.kind === 'head') {
    parentPort?.postMessage({ ...readHead(request), compiles: 0 });
    return;
  }
  const before = checksCompiled();
  const answer = request.kind === 'csv-part' ? parseCsvPart(request) : pooled(parseFile(request));
  const buffer = answer.rowsBytes?.buffer;
  parentPort?.postMessage({ ...answer, compiles: checksCompiled() - before }, buffer instanceof ArrayBuffer ? [buffer] : []);
});
