// Widget tests: every Storybook story rendered in jsdom (with its play function and an axe check),
// plus focused tests of the mount API and keyboard behaviour.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Keep Vite's cache in the root node_modules (git-ignored), not react-widgets/node_modules.
  cacheDir: fileURLToPath(new URL('../node_modules/.vite/react-widgets', import.meta.url)),
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    restoreMocks: true,
    testTimeout: 20_000,
  },
});
