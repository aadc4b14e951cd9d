// Library build of the React widgets: public/widgets/vonk-widgets.js (ES module, React bundled,
// minified, on preact/compat) and public/widgets/vonk-widgets.css. The Rust app loads it with
// `import('/widgets/vonk-widgets.js')` and calls mount/update/unmount.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { preactAlias } from './preact-alias';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  // Nothing to copy: the output folder is itself served as /widgets/.
  // Keep Vite's cache in the root node_modules (git-ignored), not react-widgets/node_modules.
  cacheDir: fileURLToPath(new URL('../node_modules/.vite/react-widgets', import.meta.url)),
  publicDir: false,
  plugins: [react()],
  // The shipped bundle runs the widgets on Preact's React-compatible runtime (about 10 KB gzip
  // instead of React DOM's 60 KB). The widgets are written against React's API and documented and
  // tested with React in Storybook and vitest, and the stories run again on this runtime
  // (vitest.shipped.config.ts); the Playwright flows drive this bundle in Chromium.
  resolve: { alias: preactAlias },
  // Library mode does not replace this by itself; React would keep its development build.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: fileURLToPath(new URL('../public/widgets/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    cssMinify: true,
    sourcemap: false,
    reportCompressedSize: true,
    lib: {
      entry: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      formats: ['es'],
      fileName: () => 'vonk-widgets.js',
      cssFileName: 'vonk-widgets',
    },
    rolldownOptions: {
      output: {
        // One file: the app imports a single module.
        codeSplitting: false,
        // Vite keeps whitespace in ES library builds (for downstream bundlers); this bundle is
        // loaded as is by the browser, so minify fully and drop comments.
        minify: true,
        comments: false,
      },
    },
  },
});
