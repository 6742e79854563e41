import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../config.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the envelope and error model', () => {
  it('answers an unknown API route with a 404 envelope', async () => {
    const res = await t.call('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 40400, data: null });
    expect(res.body.message).toContain('/no/such/route');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.call('POST', '/users/login', { body: '{"username": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 40000, message: 'Malformed request body.', data: null });
  });

  it('answers a body over the limit with 413', async () => {
    const big = JSON.stringify({ username: 'a'.repeat(2 * 1024 * 1024), password: 'x' });
    const res = await t.call('POST', '/users/login', { body: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe(41300);
  });

  it('lists every validation issue with 422', async () => {
    const res = await t.call('POST', '/users/login', { body: { username: 5 } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(42200);
    const paths = res.body.data.issues.map((i: { path: string }) => i.path).sort();
    expect(paths).toEqual(['password', 'username']);
  });

  it('hides internals of an unexpected error behind a request id', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-http-'));
    const built = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), { db: t.ctx.db, web: false });
    built.app.get(`${BASE}/boom`, { config: { access: 'public' } }, async () => {
      throw new Error('secret internals at /srv/app.ts:42');
    });
    const res = await built.app.inject({ method: 'GET', url: `${BASE}/boom` });
    await built.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.code).toBe(50000);
    expect(body.message).toBe('Internal server error');
    expect(body.data.requestId).toBe(res.headers['x-request-id']);
    expect(res.body).not.toContain('secret internals');
  });

  it('never answers HTML to an API client', async () => {
    for (const url of ['/users/info', '/nope', '/users/login']) {
      const res = await t.app.inject({ method: 'GET', url: `${BASE}${url}` });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

describe('probes, docs and headers', () => {
  it('reports liveness and readiness', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document generated from the route schemas to a signed-in user', async () => {
    const { token } = await t.signedIn(['user']);
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/docs/json`, headers: { 'x-token': token } });
    expect(res.statusCode).toBe(200);
    const doc = z.object({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }).parse(res.json());
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([`${BASE}/users/login`, `${BASE}/locales/list`]));
    expect((await t.app.inject({ method: 'GET', url: `${BASE}/docs/yaml`, headers: { 'x-token': token } })).statusCode).toBe(200);
  });

  it('answers the API description to no one who is not signed in, unless it is public', async () => {
    for (const headers of [{}, { 'x-token': 'not-a-token' }]) {
      for (const url of [`${BASE}/docs/json`, `${BASE}/docs/yaml`]) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(401);
        expect(res.json()).toEqual({ code: 50008, message: 'Sign in to read the API description.', data: null });
      }
    }
    // The page around it holds nothing of the API, and sends the web app's stored token for it.
    const ui = await t.app.inject({ method: 'GET', url: `${BASE}/docs` });
    expect([200, 302]).toContain(ui.statusCode);
    const init = await t.app.inject({ method: 'GET', url: `${BASE}/docs/static/swagger-initializer.js` });
    expect(init.body).toContain(`window.localStorage.getItem("gdb-token")`);
    const open = await createTestApp({ publicApiDocs: true });
    try {
      expect((await open.app.inject({ method: 'GET', url: `${BASE}/docs/json` })).statusCode).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('sends security headers with a strict content security policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBeDefined();
  });

  it('binds a policy to every API route', () => {
    expect(t.unprotectedRoutes).toEqual([]);
  });
});

describe('the web app', () => {
  let web: Awaited<ReturnType<typeof buildApp>>;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-web-'));
    fs.mkdirSync(path.join(dir, 'dist/assets'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'dist/index.html'),
      '<html><meta name="csp-nonce" content="__CSP_NONCE__"><div id=root></div></html>',
    );
    fs.writeFileSync(path.join(dir, 'dist/assets/app.js'), 'console.log(1)');
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST: path.join(dir, 'dist') });
    web = await buildApp(config, { db: t.ctx.db });
  });
  afterAll(async () => {
    await web.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html for any page path, with the nonce the CSP names', async () => {
    for (const url of ['/', '/login', '/manage/users?id=3', '/some/unknown/page']) {
      const res = await web.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const nonce = /content="([^"]+)"/.exec(res.body)?.[1];
      expect(nonce).toMatch(/^[0-9a-f]{16,}$/);
      const policy = String(res.headers['content-security-policy']);
      // The page's style sources allow its nonce; its scripts stay 'self' only.
      expect(policy).toMatch(new RegExp(`style-src [^;]*'nonce-${nonce}'`));
      expect(policy).toMatch(/script-src 'self'(;|$)/);
    }
    // Two pages never share a nonce.
    const [a, b] = await Promise.all(['/', '/login'].map((url) => web.app.inject({ method: 'GET', url })));
    expect(/content="([^"]+)"/.exec(a?.body ?? '')?.[1]).not.toBe(/content="([^"]+)"/.exec(b?.body ?? '')?.[1]);
  });

  it('answers API calls under the same policy, with no nonce', async () => {
    const res = await web.app.inject({ method: 'GET', url: `${BASE}/nothing-here` });
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).not.toContain('nonce-');
  });

  it('serves built assets and keeps API, docs and live paths out of the fallback', async () => {
    const asset = await web.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await web.app.inject({ method: 'GET', url: `${BASE}/nothing-here` });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe(40400);
    const live = await web.app.inject({ method: 'GET', url: '/data-prep/v1/nothing' });
    expect(live.headers['content-type']).toMatch(/^application\/json/);
    const missingAsset = await web.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
  });
});
