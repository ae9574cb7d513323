import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * Lists every lazily loaded chunk's file in index.html (`<script type="application/json" id="chunk-files">`), by
 * chunk name: a chunk that fails to load, or times out, is reported with its script address (SPEC §8). The page
 * keeps the listing of the build it was loaded with, which names the file a tab left open across a deploy asks for.
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

// Chunks live under /static/js as the spec has it; /api goes to the server in development.
// In development the API server listens on PORT (3000 unless set).
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  plugins: [react(), chunkFiles()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
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
