import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Paths the single-page app never answers: API, docs, live channel and probes. */
export function isReservedPath(url: string, basePath: string): boolean {
  const p = url.split('?')[0] ?? '';
  return p.startsWith(`${basePath}/`) || p === basePath || p.startsWith('/data-prep/') || p === '/healthz' || p === '/readyz';
}

/**
 * A content security policy whose style sources also allow `nonce` (the page's style elements
 * carry it). Only the page needs one, so the policy every answer carries has none, and this one
 * is made for the page alone.
 */
function withStyleNonce(policy: string, nonce: string): string {
  return policy
    .split(';')
    .map((directive) => (/^\s*style-src\s/.test(directive) ? `${directive} 'nonce-${nonce}'` : directive))
    .join(';');
}

/**
 * Serves the built web app: files from `dist`, and `index.html` (with the request's CSP nonce)
 * for any other GET that asks for a page. Without a build, pages answer a short notice.
 * The build writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each text asset; a browser
 * that accepts one gets it with its `Content-Encoding` (and every answer `Vary: Accept-Encoding`).
 * Files under `assets/` carry a hash of their content in their name and are cached for a year.
 */
export async function registerWebApp(app: FastifyInstance, options: { dist: string; basePath: string }): Promise<void> {
  const indexFile = path.join(options.dist, 'index.html');
  const template = fs.existsSync(indexFile) ? fs.readFileSync(indexFile, 'utf8') : undefined;
  if (template) {
    await app.register(fastifyStatic, {
      root: options.dist,
      index: false,
      wildcard: true,
      preCompressed: true,
      maxAge: '1h',
      setHeaders: (res, file) => {
        if (file.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  const sendIndex = (reply: FastifyReply) => {
    if (!template) {
      return reply.type('text/plain; charset=utf-8').send('The web app is not built: run `npm run build`.');
    }
    const nonce = randomBytes(16).toString('hex');
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') reply.header('content-security-policy', withStyleNonce(policy, nonce));
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(template.replaceAll('__CSP_NONCE__', nonce));
  };
  // The page is not an API operation: it stays out of the API description.
  const page = { config: { access: 'public' as const }, schema: { hide: true } };
  app.get('/', page, (_req, reply) => sendIndex(reply));
  app.get('/index.html', page, (_req, reply) => sendIndex(reply));
  app.decorate('sendWebIndex', sendIndex);
}

declare module 'fastify' {
  interface FastifyInstance {
    sendWebIndex?: (reply: FastifyReply) => FastifyReply;
  }
}
