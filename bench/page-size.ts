// Measures the JavaScript the Components page loads before its editor opens (the entry chunk, the
// page's chunk and what they import statically, gzipped at level 9) against the Pipelines page,
// whose screen is an explorer and a form: the Components page must stay within 1.5× of it, the
// code editor, the schematic (React Flow, elkjs) and the test section's editors loading later.
// Run after `npm run build`: `npm run bench:page-size` (exit code 1 above the ratio).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const MAX_RATIO = 1.5;
const PAGE = 'src/features/components/ComponentEditorPage.tsx';
const EXPLORER_PAGE = 'src/features/pipelines/PipelinesPage.tsx';

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

function closure(chunk: Chunk, seen = new Set<string>()): Set<string> {
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports) {
    const next = byFile.get(dep);
    if (next) closure(next, seen);
  }
  return seen;
}

/** The gzipped bytes of the entry, the chunk holding `page` and their static imports; throws on a heavy module in them. */
function firstLoad(page: string): { gzip: number; files: number; modules: string[] } {
  const entry = chunks.find((c) => c.isEntry);
  const holder = chunks.find((c) => c.modules.includes(page));
  if (!entry || !holder) throw new Error(`The build has no entry chunk or no chunk holding ${page}.`);
  const files = new Set([...closure(entry), ...closure(holder)]);
  const gzip = [...files].reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
  const modules = [...files].flatMap((f) => byFile.get(f)?.modules ?? []);
  return { gzip, files: files.size, modules };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const components = firstLoad(PAGE);
const explorer = firstLoad(EXPLORER_PAGE);
const heavy = components.modules.filter((m) => /@codemirror|elkjs|@xyflow/.test(m));
const ratio = components.gzip / explorer.gzip;
console.log(`Pipelines page first load: ${explorer.files} files, ${kb(explorer.gzip)} gzip`);
console.log(`Components page first load: ${components.files} files, ${kb(components.gzip)} gzip`);
console.log(
  `ratio ${ratio.toFixed(2)} (at most ${MAX_RATIO}); editor, schematic or layout in it: ${heavy.length === 0 ? 'none' : heavy.join(', ')}`,
);
process.exitCode = ratio <= MAX_RATIO && heavy.length === 0 ? 0 : 1;
