import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const api = process.env.API_URL ?? 'http://127.0.0.1:8080';

/** Where bench/bundle-size.ts reads which chunks hold which modules (kept out of the served dist). */
export const BUNDLE_STATS = path.resolve(import.meta.dirname, '../../node_modules/.cache/gdb-web/bundle-stats.json');

/** Records each output chunk with its imports and modules, for the bundle benchmark. */
function bundleStats(): Plugin {
  return {
    name: 'gdb-bundle-stats',
    apply: 'build',
    writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((out) =>
        out.type === 'chunk'
          ? [
              {
                file: out.fileName,
                isEntry: out.isEntry,
                imports: out.imports,
                modules: out.moduleIds.map((id) => path.relative(import.meta.dirname, id).replaceAll(path.sep, '/')),
              },
            ]
          : [],
      );
      fs.mkdirSync(path.dirname(BUNDLE_STATS), { recursive: true });
      fs.writeFileSync(BUNDLE_STATS, JSON.stringify({ chunks }, null, 1));
    },
  };
}

/** Text files worth compressing, and the size below which a compressed copy saves nothing. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map|webmanifest)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside each text file of
 * the build, once, so the server sends them as they are instead of compressing each answer.
 */
function precompress(): Plugin {
  return {
    name: 'gdb-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? path.resolve(import.meta.dirname, 'dist');
      for (const name of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const file = path.join(dir, name);
        const bytes = fs.readFileSync(file);
        if (bytes.length < MIN_COMPRESS_BYTES) continue;
        const brotli = zlib.brotliCompressSync(bytes, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        });
        fs.writeFileSync(`${file}.br`, brotli);
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

/** The rc-util modules that import its scroll bar measure, and how they name it. */
const RC_UTIL_ES = /[\\/]@rc-component[\\/]util[\\/]es[\\/]/;
const SCROLLBAR_SIZE_IMPORT = /^\.\.?\/getScrollBarSize(\.js)?$/;

/**
 * Points rc-util's scroll bar measure (tables, scroll locks) at src/ground/scrollbar-size.ts, the
 * same measure without the style element the content security policy refuses.
 */
function cspSafeScrollbarSize(): Plugin {
  const replacement = path.resolve(import.meta.dirname, 'src/ground/scrollbar-size.ts');
  return {
    name: 'gdb-csp-safe-scrollbar-size',
    enforce: 'pre',
    resolveId(source, importer) {
      return importer && RC_UTIL_ES.test(importer) && SCROLLBAR_SIZE_IMPORT.test(source) ? replacement : null;
    },
  };
}

export default defineConfig({
  plugins: [cspSafeScrollbarSize(), react(), bundleStats(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Modules run in import order even when split across chunks (src/zod-config.ts must run first).
    rolldownOptions: { output: { strictExecutionOrder: true } },
    // React and antd share one vendor chunk; the budget that matters is bench/bundle-size.ts's.
    chunkSizeWarningLimit: 1024,
  },
  server: {
    proxy: {
      '/gdb-importer': api,
      '/data-prep': { target: api, ws: true },
    },
  },
});
