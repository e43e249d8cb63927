import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The `web` project of the root vitest.config.ts: React components and browser-side
// logic under jsdom. Run: npx vitest run --project web
export default defineConfig({
  plugins: [react()],
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    restoreMocks: true,
    // The machine's two cores are shared: the first render of a file imports the whole app cold.
    testTimeout: 20_000,
    // Vitest's default on 2 cores is one worker: two run the project in 76 s instead of 104 s.
    maxWorkers: 2,
    // A worker runs file after file in one module cache and jsdom (19 s instead of 76 s): the setup
    // file unmounts and clears what a test drew or stored (test/setup.ts), mocks are restored.
    isolate: false,
    // Its place among the root projects: after unit, before integration and e2e.
    sequence: { groupOrder: 1 },
  },
});
