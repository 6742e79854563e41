// A manager points a pipeline's real-time source at what only the server can reach (this machine,
// the cloud metadata address, the private network) and asks for it to be fetched: the server
// fetches only listed hosts, and never an internal address unless the operator opened its range.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvSource, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { loadConfig } from '../../platform/config.ts';
import { newId } from '../../platform/ids.ts';

let internal: http.Server;
let port: number;
const asked: string[] = [];
const apps: TestApp[] = [];

beforeAll(async () => {
  internal = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/moved.csv') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/csv' }).end('secret,value\nadmin-key,42\n');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  port = (internal.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await new Promise((resolve) => internal.close(resolve));
});

async function appWith(hosts: string[], privateRanges: string[] = []) {
  const t = await createTestApp({ realtimeSources: { hosts, privateRanges } });
  apps.push(t);
  const { user, token } = await t.signedIn(['manager']);
  const [brand] = await t.services.reference.brands();
  const [locale] = await t.services.reference.locales();
  const [productLine] = await t.services.reference.productLines();
  const [datakind] = await t.services.reference.datakinds();
  /** The manager's pipeline whose real-time source is this URL, fetched now as they would ask. */
  const fetchNow = async (url: string) => {
    const pipelineId = await t.services.pipelines.create({
      name: `Live ${newId().slice(-8)}`,
      isMaster: false,
      component: null,
      dataSources: [csvSource('prices', { connectorType: 'real-time', url })],
      dataSinks: [sink('out')],
      brand: brand?._id ?? null,
      locale: locale?._id ?? null,
      productLine: productLine?._id ?? null,
      datakind: datakind?._id ?? null,
    });
    return t.call('POST', '/uploads/realtime', { token, body: { pipelineId, dataSubKinds: ['prices'] } });
  };
  return { t, user, fetchNow };
}

const internalMessage = (host: string) => `Real-time source prices: host ${host} is a loopback, private or internal address.`;

describe('real-time source fetch', () => {
  it('fetches nothing when no host is listed (the default)', async () => {
    const { fetchNow } = await appWith(loadConfig({}).realtimeSources.hosts);
    const res = await fetchNow(`http://127.0.0.1:${port}/prices.csv`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Real-time source prices: host 127.0.0.1 is not allowed.');
    expect(asked).toEqual([]);
  });

  it('refuses loopback, metadata and private addresses even when their host is listed, by name or literal', async () => {
    const { fetchNow } = await appWith(['127.0.0.1', 'localhost', '[::1]', '169.254.169.254', '10.0.0.7', 'evil.test']);
    const cases: [string, string][] = [
      [`http://127.0.0.1:${port}/prices.csv`, internalMessage('127.0.0.1')],
      [`http://localhost:${port}/prices.csv`, internalMessage('localhost')],
      [`http://[::1]:${port}/prices.csv`, internalMessage('[::1]')],
      [`http://0x7f000001:${port}/prices.csv`, internalMessage('127.0.0.1')],
      ['http://169.254.169.254/latest/meta-data/', internalMessage('169.254.169.254')],
      ['http://10.0.0.7/prices.csv', internalMessage('10.0.0.7')],
      [`http://other.test:${port}/prices.csv`, 'Real-time source prices: host other.test is not allowed.'],
      [`file:///etc/passwd`, 'Real-time source prices: only http and https are fetched.'],
    ];
    for (const [url, message] of cases) {
      const res = await fetchNow(url);
      expect([url, res.status, res.body.message]).toEqual([url, 422, message]);
    }
    expect(asked).toEqual([]);
  });

  it('fetches a listed host in a range the operator opened, and follows no redirect', async () => {
    const { t, fetchNow } = await appWith(['127.0.0.1', 'localhost'], ['127.0.0.1/32', '::1/128']);
    const res = await fetchNow(`http://127.0.0.1:${port}/prices.csv`);
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data).toHaveLength(1);
    // A listed name is connected to at the address its lookup checked.
    const byName = await fetchNow(`http://localhost:${port}/prices.csv`);
    expect(byName.status, byName.body.message).toBe(200);
    const upload = await t.ctx.db.kysely.selectFrom('uploads').selectAll().where('id', '=', res.body.data[0]).executeTakeFirst();
    expect(upload?.original_filename).toBe('prices.csv');
    const moved = await fetchNow(`http://127.0.0.1:${port}/moved.csv`);
    expect([moved.status, moved.body.message]).toEqual([502, 'Real-time source prices answered 302.']);
    expect(asked).toEqual(['/prices.csv', '/prices.csv', '/moved.csv']);
  });

  it('refuses settings that are not host names or ranges', () => {
    expect(() => loadConfig({ REALTIME_SOURCE_HOSTS: 'http://data.example.test/' })).toThrow(
      'http://data.example.test/ is not a host name',
    );
    expect(() => loadConfig({ REALTIME_SOURCE_PRIVATE_RANGES: '10.0.0.0/33' })).toThrow(
      '10.0.0.0/33 is not an address range such as 10.20.0.0/16',
    );
    expect(loadConfig({ REALTIME_SOURCE_HOSTS: ' Data.Example.test , 10.1.2.3 ' }).realtimeSources).toEqual({
      hosts: ['data.example.test', '10.1.2.3'],
      privateRanges: [],
    });
  });
});
