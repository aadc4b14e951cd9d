// Prettier for the widgets, the stories and the Playwright flows: the house style of the
// TypeScript already there (single quotes, semicolons, trailing commas, long lines).
export default {
  singleQuote: true,
  printWidth: 160,
  trailingComma: 'all',
};
