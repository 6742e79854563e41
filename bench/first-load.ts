// The JavaScript a page of the built web app loads first: the entry chunk of index.html, the chunk
// holding the page (routes are lazy) and every chunk they import statically, each gzipped at
// level 9. Read from the build's chunk statistics (`npm run build` writes them).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

interface Chunk {
  file: string;
  isEntry: boolean;
  imports: string[];
  modules: string[];
}

/** One file of a first load: its size raw and gzipped, and the modules it holds. */
export interface LoadedFile {
  file: string;
  raw: number;
  gzip: number;
  modules: string[];
}

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'packages/web/dist');
const statsFile = path.join(root, 'node_modules/.cache/gdb-web/bundle-stats.json');

/** The build's chunks; exits (1) when there is no build. */
function chunksOfBuild(): Chunk[] {
  if (!fs.existsSync(statsFile)) {
    console.error('No bundle statistics: run `npm run build` first.');
    process.exit(1);
  }
  return (JSON.parse(fs.readFileSync(statsFile, 'utf8')) as { chunks: Chunk[] }).chunks;
}

/** The files the page (a module path such as `src/features/account/LoginPage.tsx`) loads first, largest first. */
export function firstLoad(page: string): LoadedFile[] {
  const chunks = chunksOfBuild();
  const byFile = new Map(chunks.map((c) => [c.file, c]));
  const closure = (chunk: Chunk, seen: Set<string>): Set<string> => {
    if (seen.has(chunk.file)) return seen;
    seen.add(chunk.file);
    for (const dep of chunk.imports) {
      const next = byFile.get(dep);
      if (next) closure(next, seen);
    }
    return seen;
  };
  const entry = chunks.find((c) => c.isEntry);
  const holder = chunks.find((c) => c.modules.includes(page));
  if (!entry || !holder) throw new Error(`The build has no entry chunk or no chunk holding ${page}.`);
  const files = new Set([...closure(entry, new Set()), ...closure(holder, new Set())]);
  return [...files]
    .map((file) => {
      const bytes = fs.readFileSync(path.join(dist, file));
      return {
        file,
        raw: bytes.length,
        gzip: zlib.gzipSync(bytes, { level: 9 }).length,
        modules: byFile.get(file)?.modules ?? [],
      };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
export const total = (files: readonly LoadedFile[], of: 'raw' | 'gzip') => files.reduce((n, f) => n + f[of], 0);
