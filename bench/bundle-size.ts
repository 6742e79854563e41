// Measures the JavaScript the login page loads first: the entry chunk of index.html, the chunk
// that holds the sign-in page (its route is lazy), and every chunk they import statically, each
// gzipped at level 9. Run after `npm run build`: `npm run bench:bundle` (exit code 1 above the budget).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET_KB = 350;
const LOGIN_PAGE = 'src/features/account/LoginPage.tsx';

interface Chunk {
  file: string;
  isEntry: boolean;
  imports: string[];
  modules: string[];
}

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'packages/web/dist');
const statsFile = path.join(root, 'node_modules/.cache/gdb-web/bundle-stats.json');
if (!fs.existsSync(statsFile)) {
  console.error('No bundle statistics: run `npm run build` first.');
  process.exit(1);
}
const { chunks }: { chunks: Chunk[] } = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
const byFile = new Map(chunks.map((c) => [c.file, c]));

/** The chunk and everything it imports statically. */
function closure(chunk: Chunk, seen = new Set<string>()): Set<string> {
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports) {
    const next = byFile.get(dep);
    if (next) closure(next, seen);
  }
  return seen;
}

const entry = chunks.find((c) => c.isEntry);
const login = chunks.find((c) => c.modules.includes(LOGIN_PAGE));
if (!entry || !login) {
  console.error(`The build has no entry chunk or no chunk holding ${LOGIN_PAGE}.`);
  process.exit(1);
}
const files = new Set([...closure(entry), ...closure(login)]);
const rows = [...files].map((file) => {
  const bytes = fs.readFileSync(path.join(dist, file));
  return { file, raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
});
rows.sort((a, b) => b.gzip - a.gzip);
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
for (const r of rows) console.log(`  ${r.file.padEnd(44)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)} gzip`);
const raw = rows.reduce((n, r) => n + r.raw, 0);
const gzip = rows.reduce((n, r) => n + r.gzip, 0);
console.log(
  `login page first-load JavaScript: ${rows.length} files, ${kb(raw)} raw, ${kb(gzip)} gzip (budget ${BUDGET_KB} kB gzip)`,
);
process.exitCode = gzip <= BUDGET_KB * 1024 ? 0 : 1;
