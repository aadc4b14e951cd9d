#!/usr/bin/env bash
# `make test`: every layer in turn, each timed. The time of each layer is printed at the end,
# also when one fails (the failing layer is marked and nothing after it runs).
set -uo pipefail
cd "$(dirname "$0")/.."

names=()
times=()
started=$SECONDS
log=$(mktemp "${TMPDIR:-/tmp}/vonk-layer-XXXXXX")
failed=""
summary() {
  echo
  echo "==> time per layer"
  for i in "${!names[@]}"; do
    printf '  %-62s %3dm %02ds\n' "${names[$i]}" $((times[i] / 60)) $((times[i] % 60))
  done
  local total=$((SECONDS - started))
  printf '  %-62s %3dm %02ds\n' "total" $((total / 60)) $((total % 60))
  # A CI log is often read from its tail: the failed layer's own failure lines come last.
  if [[ -n $failed ]]; then
    echo
    echo "==> what failed in: $failed"
    grep -E '✘|^test .* FAILED|^failures:|panicked at|^error(\[|:)|^ +Error: |^ +[0-9]+ (failed|flaky)|^ +\[[a-z0-9-]+\] › ' "$log" | tail -n 30
  fi
  rm -f "$log"
}
trap summary EXIT

# layer NAME COMMAND…: runs the command, records its time; stops the run when it fails.
layer() {
  local name=$1
  shift
  echo "==> $name"
  local start=$SECONDS
  "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  names+=("$name$([[ $status -eq 0 ]] || echo " (FAILED)")")
  times+=($((SECONDS - start)))
  [[ $status -eq 0 ]] || {
    failed=$name
    exit "$status"
  }
}

make_quiet() { make --no-print-directory "$@"; }

# Four tests at a time per test binary on two cores: the service and HTTP tests spend most of
# their time waiting on a database's disk writes, a socket or another process, not on the CPU
# (the server's tests take half the time they take two at a time).
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-4}"

layer "tools (installed when missing)" scripts/install-tools.sh --test
layer "format and lints (rustfmt, clippy)" make_quiet lint
layer "Rust: domain, server on SQLite + PostgreSQL, site tool" cargo test -p domain -p server -p vonk-site
layer "Rust: app, HTTP, nodes behind nginx, crash and flood tests" cargo test -p app --features ssr
layer "widgets: types, tests from stories, Storybook build" make_quiet test-widgets
layer "release build (server, wasm, site)" make_quiet build
layer "each page's browser code against its budget" scripts/bundle-sizes.sh
layer "Playwright on SQLite and PostgreSQL, side by side" scripts/e2e-both.sh
