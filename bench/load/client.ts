// The load bench's HTTP client: keep-alive connections to the bench server, one JSON call at a time
// per caller, each answer's envelope read.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const API = '/gdb-importer/v1';

export class CallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One request to the API; answers the envelope's data, throws CallError on a status above 299. */
export function call<T>(
  baseUrl: string,
  method: string,
  url: string,
  options: { token?: string; json?: unknown; body?: Buffer; contentType?: string } = {},
): Promise<T> {
  const body = options.body ?? (options.json === undefined ? undefined : Buffer.from(JSON.stringify(options.json)));
  const headers: Record<string, string> = {};
  if (options.token) headers['x-token'] = options.token;
  if (body) headers['content-type'] = options.contentType ?? 'application/json';
  // Its length given: Node frames a DELETE's body by no other means.
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${API}${url}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const status = res.statusCode ?? 0;
        let answer: { message?: string; data?: T };
        try {
          answer = JSON.parse(text) as typeof answer;
        } catch {
          reject(new CallError(status, `${method} ${url}: ${status} ${text.slice(0, 200)}`));
          return;
        }
        if (status > 299) reject(new CallError(status, `${method} ${url}: ${status} ${answer.message ?? ''}`));
        else resolve(answer.data as T);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const answer = await call<{ token: { value: string } }>(baseUrl, 'POST', '/users/login', { json: { username, password } });
  return answer.token.value;
}

/** One Run now: the import's id, or undefined when the pipeline is busy (409) before the deadline. */
export async function tryRunNow(
  baseUrl: string,
  token: string,
  pipelineId: string,
  deadline: number,
): Promise<string | undefined> {
  try {
    const { importId } = await call<{ importId: string }>(baseUrl, 'POST', '/imports', {
      token,
      json: { pipelineId, kind: 'immediate' },
    });
    return importId;
  } catch (error) {
    if (!(error instanceof CallError && error.status === 409) || Date.now() > deadline) throw error;
    return undefined;
  }
}
