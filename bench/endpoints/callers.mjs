// The callers of the endpoint calls benchmark, in a thread of their own: systems that call an
// endpoint are elsewhere, so their requests and the reading of the answers do not share the
// server's event loop (the machine's cores they do share). `clients` callers, each sending its
// next call when the last one answered, at most `rate` calls a second between them all, for
// `seconds`; a warm-up of five calls first, not counted. Posts the answers back when done.
import { parentPort, workerData } from 'node:worker_threads';

// Plain JavaScript: a worker thread does not take the TypeScript loader its parent runs with.

/** @typedef {{ base: string, endpoints: { path: string, key: string }[], rate: number, clients: number, seconds: number }} CallersJob */
/** @typedef {{ status: number, ms: number }} Answer */
/** @typedef {{ answers: Answer[], elapsedMs: number, failures: string[] }} CallersResult */

/** @type {CallersJob} */
const job = workerData;
/** Why calls got no answer, once each. */
/** @type {Set<string>} */
const failures = new Set();

/** @param {number} i @returns {Promise<Answer>} */
async function callOnce(i) {
  const target = job.endpoints[((i % job.endpoints.length) + job.endpoints.length) % job.endpoints.length];
  if (!target) throw new Error('no endpoint');
  const started = performance.now();
  try {
    const res = await fetch(`${job.base}/${target.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': target.key },
      body: JSON.stringify([{ code: `C${i}`, price: i }]),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch (error) {
    failures.add(error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error));
    return { status: 0, ms: performance.now() - started };
  }
}

await Promise.all(Array.from({ length: 5 }, (_, i) => callOnce(-1 - i)));
await new Promise((r) => setTimeout(r, 2000));

/** @type {Answer[]} */
const answers = [];
const loopStarted = performance.now();
const until = loopStarted + job.seconds * 1000;
let sent = 0;
async function client() {
  while (performance.now() < until) {
    const i = sent++;
    const due = loopStarted + (i * 1000) / job.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (performance.now() >= until) return;
    answers.push(await callOnce(i));
  }
}
await Promise.all(Array.from({ length: job.clients }, () => client()));
/** @type {CallersResult} */
const result = { answers, elapsedMs: performance.now() - loopStarted, failures: [...failures] };
parentPort?.postMessage(result);
