// Child process of the live benchmark: one server instance listening on 127.0.0.1, reporting its
// memory. It signs in a manager and creates the imports the subscribers follow. On PGlite it is
// also the writer (the embedded database lives inside this process).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { buildImport, buildPipeline } from '../../packages/server/test/factories.ts';
import { listenLocal } from '../../packages/server/test/live-kit.ts';
import { type LineRow, runWriter, type WriterPlan } from './writer-loop.ts';

const imports = Number(process.env.BENCH_IMPORTS ?? 200);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-live-'));
// Every subscriber signs in as the one bench manager: lift the per-user socket cap for them.
const env: NodeJS.ProcessEnv = {
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  TFA_REQUIRED: 'none',
  LIVE_MAX_SOCKETS_PER_USER: '1000',
};
if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const config = loadConfig(env);
const { app, services, ctx, live } = await buildApp(config, { web: false });
const url = await listenLocal(app);

const password = 'Bench!Passw0rd';
const user = await services.users.create({
  firstName: 'bench',
  lastName: 'manager',
  userName: 'bench.manager',
  email: 'bench.manager@example.test',
  roles: ['manager'],
  password,
});
const login = await app.inject({
  method: 'POST',
  url: `${config.basePath}/users/login`,
  payload: { username: user.user_name, password },
});
const token = login.json<{ data: { token: { value: string } } }>().data.token.value;
const { id: pipelineId } = await buildPipeline({ services, ctx }, { name: 'bench' });
const importIds: string[] = [];
for (let i = 0; i < imports; i++) importIds.push(await buildImport({ services, ctx }, pipelineId));

let peakRss = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  const cpu = process.cpuUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, peakRss, peakHeap, cpuMs: (cpu.user + cpu.system) / 1000, hub: live.stats() };
};
const timer = setInterval(() => process.send?.({ type: 'memory', memory: sample() }), 250);

process.on('message', async (msg: { type: string; plan?: WriterPlan }) => {
  if (msg.type === 'write' && msg.plan) {
    const insert = (rows: LineRow[]) =>
      sql`insert into logs (level, message, import_id) values ${sql.join(
        rows.map((r) => sql`('info', ${r.message}, ${r.import_id}::uuid)`),
      )}`
        .execute(ctx.db.kysely)
        .then(() => undefined);
    const result = await runWriter(msg.plan, insert);
    process.send?.({ type: 'writer-done', result });
  }
  if (msg.type === 'stop') {
    clearInterval(timer);
    process.send?.({ type: 'memory', memory: sample() });
    await app.close();
    await ctx.db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});

process.send?.({ type: 'ready', url, token, importIds, memory: sample() });
