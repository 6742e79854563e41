// The explorer tree of data models (GET /folders/tree?kind=schema through the app, without a
// socket: sign-in check, the caller's badges, folders and documents read, the document access
// check of every folder and document, the tree built and serialised): 10,000 documents in 500
// folders (20 top folders of 24 sub-folders each, 20 documents a folder), for a manager holding 20
// project badges; a third of the folders and documents carry read badges (one or two groups of one
// or two badges out of 40), so the check both keeps and drops. Target: 150 ms of server time.
// Three series, each run timed (the fastest and the median shown): calls with nothing changed since
// the last (the server answers from the tree it keeps), calls each after a document was renamed (the
// kind's documents read again), and calls each after a folder was renamed (its folders read again).
//   node --no-node-snapshot --import tsx bench/folders/tree.ts
//   BENCH_RUNS (20), BENCH_DOCUMENTS (10000), BENCH_FOLDERS (500),
//   BENCH_DATABASE_URL (a PostgreSQL server: a fresh database is made on it and dropped; PGlite otherwise)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { buildApp } from '../../packages/server/src/app.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { newId } from '../../packages/server/src/platform/ids.ts';
import { seededRandom } from '../../packages/server/test/seeded-random.ts';
import { createTestDb } from '../../packages/server/test/test-db.ts';

const runCount = Number(process.env.BENCH_RUNS ?? 20);
const documentCount = Number(process.env.BENCH_DOCUMENTS ?? 10_000);
const folderCount = Number(process.env.BENCH_FOLDERS ?? 500);
const TARGET_MS = 150;
const HELD = 20;
const BADGES = 40;
const PASSWORD = 'Bench!Passw0rd';

if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
const testDb = await createTestDb();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-folders-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', TFA_REQUIRED: 'none' });
const { app, services, ctx } = await buildApp(config, { db: testDb.db, web: false });
const k = ctx.db.kysely;
const next = seededRandom(20261125);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] as T;

const setupStarted = performance.now();
const badges = Array.from({ length: BADGES }, () => newId());
await k
  .insertInto('tags')
  .values(badges.map((id, i) => ({ id, name: `bench badge ${i}`, type: 'project' as const })))
  .execute();
/** A third of the items carry read badges: one or two groups, each of one or two badges. */
const readBadges = () => {
  if (next() > 1 / 3) return { read: [], write: [] };
  const group = () => (next() < 0.5 ? [pick(badges)] : [pick(badges), pick(badges)]);
  return { read: next() < 0.5 ? [group()] : [group(), group()], write: [] };
};

const root = await k
  .selectFrom('folders')
  .select('id')
  .where('kind', '=', 'schema')
  .where('parent_id', 'is', null)
  .executeTakeFirstOrThrow();
const tops = Math.max(1, Math.round(folderCount / 25));
const folders: { id: string; kind: 'schema'; parent_id: string; name: string; tags: string }[] = [];
for (let i = 0; i < folderCount; i++) {
  const parent = i < tops ? root.id : (folders[i % tops]?.id ?? root.id);
  folders.push({ id: newId(), kind: 'schema', parent_id: parent, name: `folder ${i}`, tags: JSON.stringify(readBadges()) });
}
await k.insertInto('folders').values(folders).execute();
/** The document renamed before each call of the second series. */
let renamed = '';
const jsonSchema = JSON.stringify({ type: 'object', properties: { sku: { type: 'string' }, price: { type: 'number' } } });
for (let start = 0; start < documentCount; start += 1000) {
  const rows = Array.from({ length: Math.min(1000, documentCount - start) }, (_, j) => {
    const id = newId();
    const n = start + j;
    if (n === 0) renamed = id;
    return {
      id,
      family_id: id,
      version: 1,
      folder_id: folders[n % folders.length]?.id ?? null,
      name: `bench model ${String(n).padStart(5, '0')}`,
      json_schema: jsonSchema,
      tags: JSON.stringify(readBadges()),
    };
  });
  await k.insertInto('schemas').values(rows).execute();
}
const manager = await services.users.create({
  firstName: 'bench',
  lastName: 'folders',
  userName: 'bench.folders',
  email: 'bench.folders@example.test',
  roles: ['manager'],
  password: PASSWORD,
});
await k
  .updateTable('users')
  .set({ project_tags: badges.slice(0, HELD) })
  .where('id', '=', manager.id)
  .execute();
const login = await app.inject({
  method: 'POST',
  url: `${config.basePath}/users/login`,
  payload: { username: manager.user_name, password: PASSWORD },
});
const token = login.json().data.token.value as string;
console.log(
  `${ctx.db.engine}: ${documentCount} data models in ${folderCount} folders, a manager holding ${HELD} of ${BADGES} badges, set up in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s; load average ${os.loadavg()[0]?.toFixed(1)}`,
);

const tree = async () => {
  const res = await app.inject({
    method: 'GET',
    url: `${config.basePath}/folders/tree?kind=schema`,
    headers: { 'x-token': token },
  });
  if (res.statusCode !== 200) throw new Error(`tree: ${res.statusCode} ${res.body}`);
  return res;
};
const count = (node: TreeNode): [number, number] =>
  node.children.reduce<[number, number]>(
    (acc, c) => {
      const [f, d] = count(c);
      return [acc[0] + f, acc[1] + d];
    },
    node.type === 'folder' ? [1, 0] : [0, 1],
  );
const [shownFolders, shownDocuments] = count((await tree()).json().data[0] as TreeNode);

/** Times `runCount` calls, each after `before` (not timed): by the clock and in CPU time of this process. */
const timed = async (before: (run: number) => Promise<unknown>) => {
  const clock: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < runCount; run++) {
    await before(run);
    const start = performance.now();
    const used = process.cpuUsage();
    await tree();
    const spent = process.cpuUsage(used);
    clock.push(performance.now() - start);
    cpu.push((spent.user + spent.system) / 1000);
  }
  clock.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { clock, cpu };
};
const mid = Math.floor(runCount / 2);
const ms = (x: number | undefined) => `${(x ?? 0).toFixed(0)} ms`;
const verdict = (clock: number[]) => ((clock[0] ?? Infinity) <= TARGET_MS ? 'met' : 'missed');
const size = (await tree()).body.length;
console.log(
  `tree: ${shownFolders - 1} folders and ${shownDocuments} documents readable (${(size / 1024 / 1024).toFixed(1)} MiB answer), target ${TARGET_MS} ms on the fastest of ${runCount} runs, as the other benches`,
);

await tree();
const kept = await timed(async () => {});
console.log(
  `  unchanged since the last call (the kept tree): fastest ${ms(kept.clock[0])}, median ${ms(kept.clock[mid])}: ${verdict(kept.clock)}; CPU of this process, median ${ms(kept.cpu[mid])}; load average ${os.loadavg()[0]?.toFixed(1)}`,
);
// A document renamed before each call (untimed, straight to the table): the kind's documents and folders are read again.
const changed = await timed((run) =>
  k
    .updateTable('schemas')
    .set({ name: `bench renamed ${run}` })
    .where('id', '=', renamed)
    .execute(),
);
console.log(
  `  after a change to a document (its documents read again): fastest ${ms(changed.clock[0])}, median ${ms(changed.clock[mid])}: ${verdict(changed.clock)}; CPU of this process, median ${ms(changed.cpu[mid])}; load average ${os.loadavg()[0]?.toFixed(1)}`,
);
// A folder renamed before each call: only the kind's folders are read again.
const renamedFolder = folders[folders.length - 1]?.id ?? '';
const folderChanged = await timed((run) =>
  k
    .updateTable('folders')
    .set({ name: `folder renamed ${run}` })
    .where('id', '=', renamedFolder)
    .execute(),
);
console.log(
  `  after a change to a folder (its folders read again): fastest ${ms(folderChanged.clock[0])}, median ${ms(folderChanged.clock[mid])}: ${verdict(folderChanged.clock)}; CPU of this process, median ${ms(folderChanged.cpu[mid])}; load average ${os.loadavg()[0]?.toFixed(1)}`,
);

await app.close();
await testDb.drop();
fs.rmSync(dataDir, { recursive: true, force: true });
