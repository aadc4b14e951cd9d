#!/usr/bin/env bash
# Prints the gzip sizes of the browser bundles and checks them against the budgets.
#
# The wasm is split (scripts/build-site.sh, tools/site): `vonk.wasm` holds the runtime and the islands
# on nearly every page (signup modal, top bar, alerts); each page-specific island (`#[island(lazy)]`) is a module of
# its own that is fetched, with the chunks it shares with other lazy islands, when a page that
# has it hydrates. So besides the first module this prints what each lazy island adds, and what
# a page with it loads in all.
set -euo pipefail
cd "$(dirname "$0")/.."
site=${LEPTOS_SITE_ROOT:-target/site}
status=0
check() { # name file budget_bytes; leaves the file's gzip size in $size
  size=$(gzip -9 -c "$2" | wc -c)
  printf '%-22s %8d bytes gzip  (budget %d)  %s\n' "$1" "$size" "$3" "$([[ $size -le $3 ]] && echo ok || echo OVER)"
  [[ $size -le $3 ]] || status=1
}
# Budgets of issue 16 (speed): hydrate wasm 150 KB, widget bundle 80 KB.
wasm_budget=153600
check "wasm (first module)" "$site/pkg/vonk.wasm" $wasm_budget
first_module=$size
check "JS glue" "$site/pkg/vonk.js" 30000
manifest="$site/pkg/__wasm_split_manifest.json"
if [[ -f $manifest ]]; then
  # The first module's size as measured above, so that its line and the pages' totals agree.
  node - "$site/pkg" $wasm_budget "$first_module" <<'EOF' || status=1
const fs = require('fs'), path = require('path'), zlib = require('zlib');
const [dir, budget, first] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
// Chunks are shared between islands: each is compressed once.
const sizes = new Map();
const gz = (name) => {
  if (!sizes.has(name)) sizes.set(name, zlib.gzipSync(fs.readFileSync(path.join(dir, name + '.wasm')), { level: 9 }).length);
  return sizes.get(name);
};
const manifest = JSON.parse(fs.readFileSync(path.join(dir, '__wasm_split_manifest.json'), 'utf8'));
let over = false;
for (const [key, modules] of Object.entries(manifest).sort()) {
  const island = key.replace(/_loader_\d+$/, '');
  const added = modules.reduce((sum, m) => sum + gz(m), 0);
  const page = first + added;
  over ||= page > budget;
  console.log(`${('  + ' + island).padEnd(28)} ${String(added).padStart(8)} bytes gzip in ${String(modules.length).padStart(2)} files; a page with it ${page} (budget ${budget})  ${page <= budget ? 'ok' : 'OVER'}`);
}
process.exit(over ? 1 : 0);
EOF
fi
# React, the swipe game, the payment blocks and the chat panel (react-virtuoso is ~20 KB of it).
check "widgets (React)" "$site/widgets/vonk-widgets.js" 81920
exit $status
