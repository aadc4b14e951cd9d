// The widget tests again on the runtime the bundle ships with (preact/compat, see preact-alias.ts):
// every Storybook story with its play function and axe check, and the mount API. The focused
// tests in ChatPanel.test.tsx and PaymentMethodBlocks.test.tsx render through
// @testing-library/react, which needs React itself, so they run in vitest.config.ts only.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { preactAlias } from './preact-alias';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  cacheDir: fileURLToPath(new URL('../node_modules/.vite/react-widgets-shipped', import.meta.url)),
  plugins: [react()],
  resolve: { alias: preactAlias },
  test: {
    environment: 'jsdom',
    include: ['test/stories.test.tsx', 'test/mount.test.ts'],
    setupFiles: ['test/setup.ts'],
    restoreMocks: true,
    testTimeout: 20_000,
    // Compile the story and testing libraries here too, so that their React imports follow the alias.
    server: { deps: { inline: true } },
  },
});
