import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { unusedCss } from './build/unused-css.js';

/**
 * Lists every lazily loaded chunk's file in index.html (`<script type="application/json" id="chunk-files">`), by
 * chunk name: a chunk that fails to load, or times out, is reported with its script address (docs/PRODUCT.md, Code
 * chunks). The page keeps the listing of the build it was loaded with, which names the file a tab left open across a
 * deploy asks for.
 */
function chunkFiles(): Plugin {
  return {
    name: 'pipsense-chunk-files',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const files: Record<string, string> = {};
        for (const output of Object.values(bundle))
          if (output.type === 'chunk' && output.isDynamicEntry) files[output.name] = output.fileName;
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: 'chunk-files' },
            children: JSON.stringify(files).replace(/</g, '\\u003c'),
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

const compressible = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file of the build, once, at the best
 * levels: the server's static plugin sends them (`preCompressed`) with the matching Content-Encoding. Files under
 * 1 KB are not worth a second round trip of headers.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'pipsense-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
        if (!compressible.test(file)) continue;
        const path = join(outDir, file);
        const body = readFileSync(path);
        if (body.length < 1024) continue;
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

// Chunks live under /static/js as the spec has it; /api goes to the server in development.
// In development the API server listens on PORT (3000 unless set).
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  plugins: [react(), chunkFiles(), unusedCss(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the production build: the server would publish the app's whole source (SECURITY.md, Attacks
    // through the browser).
    sourcemap: false,
    // dist/.vite/manifest.json: what each chunk imports, read by bench/web.bench.ts (dot folders are never served).
    manifest: true,
    assetsDir: 'static',
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: {
        entryFileNames: 'static/js/[name]-[hash].js',
        chunkFileNames: 'static/js/[name]-[hash].js',
        assetFileNames: 'static/media/[name]-[hash][extname]',
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': apiTarget, '/healthz': apiTarget },
  },
});
