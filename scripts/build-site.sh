#!/usr/bin/env bash
# Builds the site — the server binary, the wasm bundle and the static files — into a folder of
# its own and then points target/site at it with one rename. A build never writes into the site
# a server was started from or another build is writing: two `make run`s in one clone, or a
# build beside a running server, cannot break each other. (The server reads the site's files
# into memory when it starts.) Usage: scripts/build-site.sh (from `make build`).
set -euo pipefail
cd "$(dirname "$0")/.."

site="${LEPTOS_SITE_ROOT:-$PWD/target/site}"
site="${site%/}"
builds="$(dirname "$site")/site-builds"
mkdir -p "$builds"
stage="$(mktemp -d "$builds/build-XXXXXX")"
trap 'rm -rf "$stage"' EXIT

# Start from the current site, so cargo-leptos finds its outputs and redoes only what changed;
# the split's modules are named by their content, so none of an earlier build is kept.
if [[ -d "$site" ]]; then
  cp -a "$site/." "$stage/"
fi
rm -f "$stage"/pkg/chunk_*.wasm* "$stage"/pkg/split_*.wasm* "$stage/.complete"

LEPTOS_SITE_ROOT="$stage" cargo leptos build --release --split
node scripts/precompress.mjs "$stage"
touch "$stage/.complete"

# target/site becomes a symbolic link to this build, swapped in one rename.
if [[ -d "$site" && ! -L "$site" ]]; then
  mv "$site" "$builds/old-$(date +%s)-$$"
fi
ln -sfn "site-builds/$(basename "$stage")" "$site.next-$$"
mv -T "$site.next-$$" "$site"
trap - EXIT

# Earlier finished builds go (a build still under way has no .complete yet).
current="$(readlink "$site")"
for dir in "$builds"/*; do
  [[ "site-builds/$(basename "$dir")" == "$current" ]] && continue
  if [[ -f "$dir/.complete" || "$(basename "$dir")" == old-* ]]; then
    rm -rf "$dir"
  fi
done
echo "==> site built into $site -> $current"
