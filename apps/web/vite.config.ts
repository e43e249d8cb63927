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

export default defineConfig({
  plugins: [reactPlugin],
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
