import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../config.ts';

const SCRIPT = `console.log(${JSON.stringify('a script the build compressed '.repeat(200))});`;

let t: TestApp;
let web: Awaited<ReturnType<typeof buildApp>>;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-web-'));
  const assets = path.join(dir, 'dist/assets');
  fs.mkdirSync(assets, { recursive: true });
  fs.writeFileSync(path.join(dir, 'dist/index.html'), '<html><div id=root></div></html>');
  fs.writeFileSync(path.join(assets, 'index-Bx7k2Q.js'), SCRIPT);
  fs.writeFileSync(path.join(assets, 'index-Bx7k2Q.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(assets, 'index-Bx7k2Q.js.gz'), zlib.gzipSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'dist/favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST: path.join(dir, 'dist') });
  web = await buildApp(config, { db: t.ctx.db });
});
afterAll(async () => {
  await web.app.close();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  web.app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

describe('the web app’s compressed assets', () => {
  it('sends the Brotli copy to a browser that accepts it, cached for a year', async () => {
    const res = await get('/assets/index-Bx7k2Q.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
  });

  it('sends the gzip copy when Brotli is not accepted', async () => {
    const res = await get('/assets/index-Bx7k2Q.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file as it is to a client that accepts no encoding, still varying on it', async () => {
    for (const encoding of [undefined, 'identity', 'deflate']) {
      const res = await get('/assets/index-Bx7k2Q.js', encoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.body).toBe(SCRIPT);
    }
  });

  it('serves a file without compressed copies as it is, cached briefly outside assets/', async () => {
    const res = await get('/favicon.svg', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('never answers a compressed copy asked for by its own name as a script', async () => {
    const res = await get('/assets/index-Bx7k2Q.js.br', 'br');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).not.toMatch(/javascript/);
  });
});

describe('the web page in the API description', () => {
  it('answers at / and /index.html without being described as API operations', async () => {
    expect((await get('/')).statusCode).toBe(200);
    expect((await get('/index.html')).statusCode).toBe(200);
    const paths = Object.keys((web.app.swagger() as { paths: Record<string, unknown> }).paths);
    expect(paths).not.toContain('/');
    expect(paths).not.toContain('/index.html');
    expect(paths).toContain('/healthz');
  });
});
