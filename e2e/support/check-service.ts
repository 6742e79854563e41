// A stand-in for a check service an operator lists in FORM_CHECK_URLS: GET {prefix}free?name=…
// answers {"free": true} unless the name starts with "taken". It listens on 127.0.0.1 only and
// answers any origin (a check service the browser asks must allow the app's origin).
import http from 'node:http';

export interface CheckService {
  /** The URL prefix to list in FORM_CHECK_URLS. */
  prefix: string;
  stop: () => Promise<void>;
}

const PREFIX_PATH = '/checks/';

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  res.setHeader('access-control-allow-origin', '*');
  if (req.method !== 'GET' || url.pathname !== `${PREFIX_PATH}free`) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"free":false}');
    return;
  }
  const name = url.searchParams.get('name') ?? '';
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ free: !name.startsWith('taken') }));
}

/** Starts the stand-in on a free 127.0.0.1 port. */
export function startCheckService(): Promise<CheckService> {
  const server = http.createServer(answer);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        prefix: `http://127.0.0.1:${port}${PREFIX_PATH}`,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
