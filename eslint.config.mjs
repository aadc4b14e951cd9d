// ESLint for the widgets, the stories and the Playwright flows (`npm run lint:ts`, part of
// `make lint`): the recommended JavaScript and TypeScript rules, and React's two rules of hooks
// for the widgets. Not turned on: eslint-plugin-react-hooks 7's React Compiler rules (refs read
// while rendering, state set in an effect): the chat's message list keeps its first item's index
// in a ref on purpose (react-virtuoso's prepend contract), and no compiler builds these widgets.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['node_modules/**', 'target/**', 'storybook-static/**', 'public/**', 'react-widgets/src/generated/**', 'end2end/test-results/**', '**/*.mjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // An argument a signature needs but the body does not use is named `_…`.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['react-widgets/**/*.{ts,tsx}', 'stories/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
