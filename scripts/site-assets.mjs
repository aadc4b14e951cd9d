// The static half of a site build (scripts/build-site.sh): the style sheet and the hydration
// script. Usage: node scripts/site-assets.mjs <site-dir> <output-name>
//  - style/main.css, with what it imports, for the browsers of `browserslist defaults`
//    (prefixes and syntax lowered by Lightning CSS), minified, as pkg/<output-name>.css;
//  - pkg/<output-name>.js (wasm-bindgen's loader) minified in place by esbuild.
import fs from 'node:fs';
import path from 'node:path';
import browserslist from 'browserslist';
import { bundle, browserslistToTargets } from 'lightningcss';
import { transformSync } from 'esbuild';

const [site, name] = process.argv.slice(2);
if (!site || !name) {
  console.error('usage: node scripts/site-assets.mjs <site-dir> <output-name>');
  process.exit(2);
}
const pkg = path.join(site, 'pkg');
fs.mkdirSync(pkg, { recursive: true });

const { code } = bundle({
  filename: 'style/main.css',
  minify: true,
  targets: browserslistToTargets(browserslist('defaults')),
});
fs.writeFileSync(path.join(pkg, `${name}.css`), code);

const js = path.join(pkg, `${name}.js`);
const out = transformSync(fs.readFileSync(js, 'utf8'), { minify: true, format: 'esm', target: 'es2020' });
fs.writeFileSync(js, out.code);
