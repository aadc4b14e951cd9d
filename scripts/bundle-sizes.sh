#!/usr/bin/env bash
# Prints what each page's browser code weighs (gzip) and in how many files, and checks both
# against the page's budgets (scripts/bundle-pages.json). Part of `make test`; `make bench` prints it too.
#
# The wasm is split (scripts/build-site.sh, tools/site): `vonk.wasm`, the first module, holds
# the runtime and the islands that need no module of their own (the visitor's signup modal and
# the signup page's form shell); each `#[island(lazy)]` and each `#[lazy]` function is a module
# of its own, fetched with the chunks it shares with others when a page that has it hydrates
# (or, for a `#[lazy]` function, when it is first called). A page's total is the first module
# plus every file its islands' modules need, each file counted once. The signup forms with live
# checks (`page_form`, `modal_form`) load after the page is interactive (the server's copy of the
# form works until then; the modal's on its first opening); they are printed on their own.
set -euo pipefail
cd "$(dirname "$0")/.."
site=${LEPTOS_SITE_ROOT:-target/site}
[[ -f $site/pkg/vonk.wasm ]] || { echo "bundle-sizes: no build in $site (make build)" >&2; exit 1; }
node - "$site" scripts/bundle-pages.json <<'EOF'
const fs = require('fs'), path = require('path'), zlib = require('zlib');
const [site, table] = process.argv.slice(2);
const pkg = path.join(site, 'pkg');
const sizes = new Map();
const gz = (file) => {
  if (!sizes.has(file)) sizes.set(file, zlib.gzipSync(fs.readFileSync(path.join(pkg, file)), { level: 9 }).length);
  return sizes.get(file);
};
const manifestFile = path.join(pkg, '__wasm_split_manifest.json');
const manifest = fs.existsSync(manifestFile) ? JSON.parse(fs.readFileSync(manifestFile, 'utf8')) : {};
// Manifest keys are `<snake_case name>_loader_<hash>` for islands and `<name>_<hash>` for #[lazy] functions.
const snake = (name) => name.replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase());
const split = (name) => {
  const key = Object.keys(manifest).find((k) => k === `${name}` || k.startsWith(`${name}_loader_`) || new RegExp(`^${name}_\\d+$`).test(k));
  return key ? manifest[key].map((m) => m + '.wasm') : [];
};
const first = gz('vonk.wasm') + gz('vonk.js');
const { budgets, file_budgets: fileBudgets, pages } = JSON.parse(fs.readFileSync(table, 'utf8'));
let over = false;
const line = (label, bytes, budget, files, fileBudget) => {
  const verdict = budget ? (bytes <= budget ? 'ok' : 'OVER') : '';
  if (budget && bytes > budget) over = true;
  const count = files ? ` in ${String(files).padStart(3)} files` : '';
  const filesVerdict = fileBudget ? `  (≤ ${fileBudget} files)  ${files <= fileBudget ? 'ok' : 'OVER'}` : '';
  if (fileBudget && files > fileBudget) over = true;
  console.log(`${label.padEnd(44)} ${String(bytes).padStart(8)} bytes gzip${count}${budget ? `  (budget ${budget})  ${verdict}` : ''}${filesVerdict}`);
};
line('first module (vonk.wasm + vonk.js)', first, undefined, 2);
for (const p of pages) {
  const files = new Set(p.islands.flatMap((i) => split(snake(i))));
  const total = first + [...files].reduce((sum, f) => sum + gz(f), 0);
  line(`${p.page} (${p.as})`, total, p.budget ? budgets[p.budget] : undefined, files.size + 2, fileBudgets[p.files]);
}
// Fetched after the page is interactive: the signup page's form with live checks (the server's
// copy works until it comes) and the modal's form (on its first opening).
for (const [name, label] of [
  ['page_form', '/signup: form with live checks, after load'],
  ['modal_form', 'signup modal: its form, on first opening'],
]) {
  const files = split(name);
  if (files.length) line(`  ${label}`, files.reduce((s, f) => s + gz(f), 0));
}
const widgets = path.join(site, 'widgets', 'vonk-widgets.js');
if (fs.existsSync(widgets)) line('widgets (React, pages with a widget)', gz(path.join('..', 'widgets', 'vonk-widgets.js')), 81920);
process.exit(over ? 1 : 0);
EOF
