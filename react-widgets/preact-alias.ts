// The shipped widget bundle runs on Preact's React-compatible runtime: these aliases send React's
// imports there. Used by the library build (vite.config.ts) and by the widget tests that run on
// the shipped runtime (vitest.shipped.config.ts).
export const preactAlias = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];
