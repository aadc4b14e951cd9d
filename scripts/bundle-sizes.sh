#!/usr/bin/env bash
# Prints the gzip sizes of the browser bundles and checks them against the budgets.
set -euo pipefail
cd "$(dirname "$0")/.."
site=${LEPTOS_SITE_ROOT:-target/site}
status=0
check() { # name file budget_bytes
  local size
  size=$(gzip -9 -c "$2" | wc -c)
  printf '%-22s %8d bytes gzip  (budget %d)  %s\n' "$1" "$size" "$3" "$([[ $size -le $3 ]] && echo ok || echo OVER)"
  [[ $size -le $3 ]] || status=1
}
# Budgets of issue 16 (speed): hydrate wasm 150 KB, widget bundle 80 KB.
check "wasm" "$site/pkg/vonk.wasm" 153600
check "JS glue" "$site/pkg/vonk.js" 30000
# React, the swipe game, the payment blocks and the chat panel (react-virtuoso is ~20 KB of it).
check "widgets (React)" "$site/widgets/vonk-widgets.js" 81920
exit $status
