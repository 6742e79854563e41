// The callers of the endpoint calls benchmark, in a thread of their own: systems that call an
// endpoint are elsewhere, so their requests and the reading of the answers do not share the
// server's event loop (the machine's cores they do share). `clients` callers, each sending its
// next call when the last one answered, at most `rate` calls a second between them all, for
// `seconds`, after `warmUpSeconds` at the same rate (posted apart). Says when the measured calls start,
// then posts the answers back when done.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

// Plain JavaScript: a worker thread does not take the TypeScript loader its parent runs with.

/** @typedef {{ base: string, endpoints: { path: string, key: string }[], rate: number, clients: number, seconds: number, warmUpSeconds: number }} CallersJob */
/** @typedef {{ status: number, ms: number }} Answer */
/** @typedef {{ answers: Answer[], elapsedMs: number, warmUp: Answer[], failures: string[] }} CallersResult */

/** @type {CallersJob} */
const job = workerData;
/** Why calls got no answer, once each. */
/** @type {Set<string>} */
const failures = new Set();

/** Connections kept open between calls, one a caller at most, as a system calling often keeps them. */
const agent = new http.Agent({ keepAlive: true, maxSockets: job.clients });

/**
 * One call: its answer's status once its body is read. node:http, not fetch: the callers' CPU is
 * spent on the server's cores here, and fetch took about three times as much (6.6 s against 2.3 s
 * of this thread for 3,000 calls).
 * @param {string} url @param {string} key @param {string} body @returns {Promise<number>}
 */
function post(url, key, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** @param {number} i @returns {Promise<Answer>} */
async function callOnce(i) {
  const target = job.endpoints[((i % job.endpoints.length) + job.endpoints.length) % job.endpoints.length];
  if (!target) throw new Error('no endpoint');
  const started = performance.now();
  try {
    const status = await post(`${job.base}/${target.path}`, target.key, JSON.stringify([{ code: `C${i}`, price: i }]));
    return { status, ms: performance.now() - started };
  } catch (error) {
    failures.add(error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error));
    return { status: 0, ms: performance.now() - started };
  }
}

/**
 * Calls at `job.rate` a second for `seconds` from now, by `job.clients` callers, numbered from
 * `first`: each call's status and latency.
 * @param {number} seconds @param {number} first @returns {Promise<{ answers: Answer[], elapsedMs: number }>}
 */
async function callFor(seconds, first) {
  /** @type {Answer[]} */
  const answers = [];
  const loopStarted = performance.now();
  const until = loopStarted + seconds * 1000;
  let sent = 0;
  async function client() {
    while (performance.now() < until) {
      const i = sent++;
      const due = loopStarted + (i * 1000) / job.rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      if (performance.now() >= until) return;
      answers.push(await callOnce(first + i));
    }
  }
  await Promise.all(Array.from({ length: job.clients }, () => client()));
  return { answers, elapsedMs: performance.now() - loopStarted };
}

// The server is brought to its steady state first (its connections, parse workers, compiled code
// and first runs), at the same rate: those calls are reported apart.
const warmUp = await callFor(job.warmUpSeconds, 10_000_000);
parentPort?.postMessage({ measuring: true });
const measured = await callFor(job.seconds, 0);
/** @type {CallersResult} */
const result = { ...measured, warmUp: warmUp.answers, failures: [...failures] };
parentPort?.postMessage(result);
