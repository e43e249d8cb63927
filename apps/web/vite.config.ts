import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

// Vendor groups that must never land in the home page's entry chunk.
const CHUNK_GROUPS: { name: string; match: RegExp }[] = [
  { name: 'echarts', match: /node_modules[\\/](echarts|zrender|tslib)[\\/]/ },
  {
    name: 'react',
    match: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
  },
  {
    name: 'data',
    match: /node_modules[\\/](@tanstack|i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/,
  },
];

// @vitejs/plugin-react is hoisted to the root and typed against the root's Vite 8; this app
// builds with its own Vite 7, whose Plugin type differs only in Rolldown-specific hooks.
const reactPlugin = react() as unknown as PluginOption;

/**
 * The offline shell's file list: every file the build emits under assets/ (entry, lazy pages,
 * styles, fonts), written to dist/shell-assets.json. public/sw.js stores them all at install, so
 * a page never visited online still opens offline. Build output only: the dev server has none.
 */
const shellAssets: PluginOption = {
  name: 'manjam-shell-assets',
  apply: 'build',
  // After the files are written: the list is what dist/assets really holds (some chunks of the
  // bundle are merged away before writing).
  writeBundle(options) {
    const dir = options.dir ?? 'dist';
    const files = readdirSync(join(dir, 'assets'))
      .filter((name) => !name.endsWith('.map'))
      .sort()
      .map((name) => `/assets/${name}`);
    writeFileSync(join(dir, 'shell-assets.json'), JSON.stringify(files));
  },
};

export default defineConfig({
  plugins: [reactPlugin, shellAssets],
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
  preview: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      output: {
        manualChunks(id: string): string | undefined {
          return CHUNK_GROUPS.find((group) => group.match.test(id))?.name;
        },
      },
    },
  },
});
